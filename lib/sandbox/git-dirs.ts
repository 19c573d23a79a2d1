/**
 * Where a checkout's git metadata lives, read from the filesystem without running git (git
 * would read the very config we are about to distrust). A checkout has a `.git` directory; a
 * linked worktree has a `.git` file naming its own directory, whose `commondir` names the
 * repository's shared one (config, hooks, objects, refs).
 */
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";

export interface GitDirs {
  /** The `.git` entry in the worktree, and whether it is a file (a linked worktree). */
  readonly dotGit: string;
  readonly dotGitIsFile: boolean;
  /** The worktree's own git directory (the same as `common` for a checkout). */
  readonly own: string;
  /** The repository's shared git directory: `config` and `hooks` live here. */
  readonly common: string;
}

export function gitDirsOf(worktree: string): GitDirs | undefined {
  const dotGit = join(worktree, ".git");
  try {
    const stat = lstatSync(dotGit);
    if (stat.isDirectory()) {
      const own = realpathSync(dotGit);
      return { dotGit, dotGitIsFile: false, own, common: own };
    }
    if (!stat.isFile()) return undefined;
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
    if (!match?.[1]) return undefined;
    const own = realpathSync(resolve(worktree, match[1].trim()));
    let common = own;
    try {
      common = realpathSync(resolve(own, readFileSync(join(own, "commondir"), "utf8").trim()));
    } catch {
      // A git directory without `commondir` is its own common directory.
    }
    return { dotGit, dotGitIsFile: true, own, common };
  } catch {
    return undefined;
  }
}
