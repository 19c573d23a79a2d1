/**
 * Keeps the agent from steering Locus's own git. Git reads the repository's config (and, in a
 * linked worktree, the `.git` file and `commondir` that say where that config is) on every
 * command; an agent that can write there could add an `ext::` push URL, a `core.sshCommand`, a
 * `core.fsmonitor` program, an `insteadOf` rewrite or a proxy, and Locus's authenticated push
 * would follow it. So the files are recorded before the agent runs and, before every command
 * that carries a credential, compared with that record: any change is reverted and reported.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gitDirsOf } from "../sandbox/git-dirs.ts";

export interface ConfigGuard {
  /** Records the git files that steer commands in `worktree`, unless already recorded. */
  protect(worktree: string): void;
  /** Reverts every recorded file that changed; answers the paths it reverted. */
  restore(): string[];
}

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export function createConfigGuard(onReverted: (paths: readonly string[]) => void): ConfigGuard {
  const recorded = new Map<string, string | null>();
  function record(path: string): void {
    if (!recorded.has(path)) recorded.set(path, read(path));
  }
  return {
    protect(worktree) {
      const dirs = gitDirsOf(worktree);
      if (dirs === undefined) return;
      record(join(dirs.common, "config"));
      if (dirs.dotGitIsFile) {
        record(dirs.dotGit);
        record(join(dirs.own, "commondir"));
        record(join(dirs.own, "config.worktree"));
      }
    },
    restore() {
      const reverted: string[] = [];
      for (const [path, content] of recorded) {
        // A worktree removed since it was recorded has nothing left to steer.
        if (read(path) === content || !existsSync(dirname(path))) continue;
        if (content === null) rmSync(path, { force: true, recursive: true });
        else writeFileSync(path, content);
        reverted.push(path);
      }
      if (reverted.length > 0) onReverted(reverted);
      return reverted;
    },
  };
}
