/**
 * What one commit changed, as `createCommitOnBranch` can say it (pure: it reads git's own
 * listing). The API takes whole files (additions, base64) and deleted paths, nothing else: it
 * cannot set the executable bit, make a symbolic link or a submodule, so a commit that needs one
 * of those is refused with the reason, before anything is written (the task then fails and
 * names it; `commit.via: git` pushes such commits as they are). An existing file keeps its mode
 * when only its content changes, as on GitHub's web editor.
 * https://docs.github.com/en/graphql/reference/input-objects#filechanges
 */

export interface CommitChange {
  readonly path: string;
  /** git's status letter: A added, M modified, D deleted, T type changed. */
  readonly status: string;
  readonly oldMode: string;
  readonly newMode: string;
  /** The new blob (all zeros for a deletion). */
  readonly blob: string;
}

const REGULAR = "100644";
const MODE_NAMES: Readonly<Record<string, string>> = {
  "100755": "an executable file",
  "120000": "a symbolic link",
  "160000": "a submodule",
  "100644": "a regular file",
};

/** The changes of `git diff-tree -r -z --raw --no-renames --no-abbrev <parent> <commit>`. */
export function parseTreeChanges(raw: string): CommitChange[] {
  const fields = raw.split("\0");
  const changes: CommitChange[] = [];
  for (let at = 0; at < fields.length; at += 1) {
    const meta = fields[at]?.trim() ?? "";
    if (!meta.startsWith(":")) continue;
    const path = fields[at + 1] ?? "";
    at += 1;
    const [oldMode = "", newMode = "", , blob = "", status = ""] = meta.slice(1).split(" ");
    changes.push({ path, status: status.slice(0, 1), oldMode, newMode, blob });
  }
  return changes;
}

/** Why the API cannot make this commit's changes as they are; empty when it can. */
export function apiRefusals(changes: readonly CommitChange[]): string[] {
  return changes.flatMap((change) => {
    if (change.status === "D") return [];
    const keepsMode = change.status === "M" && change.oldMode === change.newMode;
    if (keepsMode || change.newMode === REGULAR) return [];
    const what = MODE_NAMES[change.newMode] ?? `mode ${change.newMode}`;
    return [`${change.path} is ${what}`];
  });
}

/** The base64 length of `bytes` bytes. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * Changes in groups whose request stays under `capBytes` (each change's cost: its path, and for
 * an addition its base64 contents). A single file over the cap goes alone: a file cannot be split.
 */
export function splitByRequestSize<T extends { readonly cost: number }>(
  items: readonly T[],
  capBytes: number,
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length > 0 && size + item.cost > capBytes) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.cost;
  }
  if (current.length > 0 || groups.length === 0) groups.push(current);
  return groups;
}

/** The commit message as headline and body, the way `createCommitOnBranch` takes it; a split commit's part said in its headline. */
export function messageParts(
  message: string,
  part: number,
  parts: number,
): { headline: string; body: string } {
  const [first = "", ...rest] = message.replace(/\r\n/g, "\n").split("\n");
  const headline = first.trim() || "Locus commit";
  return {
    headline: parts > 1 ? `${headline} (part ${part} of ${parts})` : headline,
    body: rest.join("\n").trim(),
  };
}
