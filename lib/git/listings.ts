/**
 * What git's listings say, read without running anything (pure), so that one git command answers
 * what used to take several: `ls-files` with tags for the tracked and untracked files at once,
 * `ls-tree` for several committed paths at once; and `diff --numstat`.
 */
import type { FileStat, WorktreeFiles } from "./git-client-types.ts";

/** The arguments of the one `ls-files` pass `parseWorktreeFiles` reads. */
export const WORKTREE_FILES_ARGS = ["ls-files", "-z", "-t", "--stage", "--others", "--exclude-standard"];

const GITLINK_MODE = "160000";

/**
 * Reads `git ls-files -z -t --stage --others --exclude-standard`. Each entry starts with git's
 * one-letter tag and a space, so a file name cannot pass for another kind of entry: `?` is an
 * untracked path (a trailing `/` marks a repository git did not look into), any other tag a
 * tracked entry, `<mode> <object> <stage>\t<path>` (one per stage while a merge is unresolved).
 */
export function parseWorktreeFiles(listing: string): WorktreeFiles {
  const tracked = new Set<string>();
  const gitlinks = new Set<string>();
  const untracked: string[] = [];
  for (const entry of listing.split("\0")) {
    if (entry.length < 2 || entry[1] !== " ") continue;
    const rest = entry.slice(2);
    if (entry[0] === "?") {
      untracked.push(rest);
      continue;
    }
    const tab = rest.indexOf("\t");
    if (tab < 0) continue;
    const path = rest.slice(tab + 1);
    tracked.add(path);
    if (rest.startsWith(`${GITLINK_MODE} `)) gitlinks.add(path);
  }
  const repositories = untracked.filter((path) => path.endsWith("/")).map((path) => path.slice(0, -1));
  return { tracked: [...tracked], untracked, nested: [...gitlinks, ...repositories] };
}

/** One entry of `git ls-tree -z`: its mode, type and object, by path. */
export interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly object: string;
}

/** Reads `git ls-tree -z <commit> -- <paths>`: `<mode> <type> <object>\t<path>` per entry. */
export function parseTreeEntries(listing: string): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  for (const entry of listing.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const [mode = "", type = "", object = ""] = entry.slice(0, tab).split(" ");
    if (object !== "") entries.set(entry.slice(tab + 1), { mode, type, object });
  }
  return entries;
}

/** Reads `git diff --numstat`: added and deleted lines per path (`-` for a binary file counts 0). */
export function parseNumstat(listing: string): FileStat[] {
  return listing
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [added = "0", removed = "0", ...path] = line.split("\t");
      return { path: path.join("\t"), additions: Number(added) || 0, deletions: Number(removed) || 0 };
    });
}
