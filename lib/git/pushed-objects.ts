/**
 * What Locus refuses to publish from the commits a run made (pure: it reads git's own listing
 * of them). A gitlink is a pointer into another repository and `.gitmodules` says where that
 * repository lives: a commit that adds or moves one, or touches `.gitmodules`, would make every
 * later `git` over the checkout (Locus's next task, a person's `--recurse-submodules` clone)
 * reach into code the agent chose. Neither is a change an agent needs to make, so a commit that
 * has one is refused rather than rewritten. Blobs over the size cap are refused too.
 */

const GITLINK_MODE = "160000";

/** GitHub refuses files over 100 MB; a file that large from an agent is a mistake or an attack. */
export const MAX_BLOB_BYTES = 50 * 1024 * 1024;

/** The reasons to refuse, from `git log --raw -z --no-renames -m --format=` of the new commits. */
export function refusedChanges(rawLog: string): string[] {
  const reasons = new Set<string>();
  const fields = rawLog.split("\0");
  for (let at = 0; at < fields.length; at += 1) {
    const meta = fields[at]?.trim() ?? "";
    if (!meta.startsWith(":")) continue;
    const path = fields[at + 1] ?? "";
    at += 1;
    const [, newMode = "", , , status = ""] = meta.slice(1).split(" ");
    if (path === ".gitmodules") reasons.add("it changes .gitmodules");
    else if (newMode === GITLINK_MODE && status !== "D")
      reasons.add(`it adds or moves a submodule at ${path}`);
  }
  return [...reasons];
}

/** The reasons to refuse, from `git rev-list --objects --filter=blob:limit=… --filter-print-omitted`. */
export function oversizedBlobs(listing: string): string[] {
  const omitted = listing.split("\n").filter((line) => line.startsWith("~"));
  return omitted.length === 0
    ? []
    : [`${omitted.length} file(s) over ${MAX_BLOB_BYTES / 1024 / 1024} MB (${omitted[0]?.slice(1)}…)`];
}
