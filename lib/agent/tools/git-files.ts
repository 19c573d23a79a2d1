/**
 * The worktree's files as git sees them, for `list_files` and the `search_text` fallback: git
 * reads tracked paths from its index and applies .gitignore in C, where a JS walk pays for
 * both on every directory (12× `git ls-files` on the kernel). Tracked and untracked files are
 * listed by two `git ls-files` run side by side and merged, as each list is already sorted.
 * The paths are git's: a tracked file deleted from disk is still listed, and a symlink is not
 * marked; callers check the entries they use.
 */
import { execFile } from "node:child_process";
import { lstat } from "node:fs/promises";
import path from "node:path";

/** The kernel's listing is 3 MB; this leaves room for far larger trees. */
const MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * `/`-separated paths under `start` (relative to `root`, `.` for all), in path order;
 * `undefined` when `root` is not the top of a git worktree (or git cannot run), so the caller
 * walks the tree instead.
 */
export async function gitListedFiles(
  root: string,
  start: string,
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  // Only a worktree's own root: inside some other repository's ignored directory, git's
  // listing would apply that repository's rules and leave everything out.
  if (!(await lstat(path.join(root, ".git")).catch(() => undefined))) return undefined;
  const pathspec = start === "." ? [] : ["--", start];
  const [tracked, untracked] = await Promise.all([
    lsFiles(root, ["--cached", ...pathspec], env, signal),
    lsFiles(root, ["--others", "--exclude-standard", ...pathspec], env, signal),
  ]);
  if (tracked === undefined || untracked === undefined) return undefined;
  return mergeSorted(tracked, untracked);
}

function lsFiles(
  root: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  // Literal pathspecs: a directory named `*` or `:(exclude)x` is a name, not a pattern. The
  // fsmonitor hook is off: it is a command from .git/config, which the agent can write.
  const command = ["--literal-pathspecs", "-c", "core.fsmonitor=false", "ls-files", "-z", ...args];
  return new Promise((resolve) => {
    execFile(
      "git",
      command,
      { cwd: root, env: withoutGitVariables(env), encoding: "utf8", maxBuffer: MAX_OUTPUT, signal },
      (error, stdout) => {
        if (error) {
          resolve(undefined);
          return;
        }
        const paths = stdout.split("\0");
        paths.pop();
        resolve(paths);
      },
    );
  });
}

/** GIT_DIR, GIT_INDEX_FILE and the like would point git at another repository than the worktree. */
function withoutGitVariables(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("GIT_")));
}

/** Two sorted lists as one; a path twice in a row (a conflicted file's stages) once. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (merged.at(-1) !== next) merged.push(next);
  }
  return merged;
}
