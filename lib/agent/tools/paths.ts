/**
 * Every path the agent names is relative to the worktree and must stay inside it, including
 * after symlinks are followed; `.git` internals are off limits because hooks and config there
 * run code or redirect pushes outside the agent's view.
 */
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

export type ResolvedPath =
  | {
      readonly ok: true;
      /** Real absolute path of the worktree root. */
      readonly root: string;
      /** Real absolute path (symlinks resolved) where the file is read or written. */
      readonly absolute: string;
      /** The real path relative to the worktree, `/`-separated; `.` for the root. */
      readonly relative: string;
      readonly exists: boolean;
    }
  | { readonly ok: false; readonly error: string };

export async function resolveWorktreePath(cwd: string, requested: string): Promise<ResolvedPath> {
  const wanted = requested.trim() === "" ? "." : requested;
  if (wanted.includes("\0")) return refuse(`The path contains a NUL character.`);
  if (path.isAbsolute(wanted) || wanted.startsWith("~")) {
    return refuse(
      `"${requested}" is absolute; paths are relative to the worktree root (for example src/index.ts). Nothing outside the worktree can be read or written.`,
    );
  }
  const root = await realpath(cwd);
  const lexical = path.resolve(root, wanted);
  if (outside(root, lexical))
    return refuse(`"${requested}" resolves outside the worktree; only files inside it can be used.`);
  if (touchesGit(root, lexical)) return refuse(gitMessage(requested));

  const missing: string[] = [];
  let existing = lexical;
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch {
      missing.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
  let real: string;
  try {
    real = await realpath(existing);
  } catch {
    return refuse(`"${requested}" goes through a symlink whose target does not exist.`);
  }
  const target = path.join(real, ...missing);
  if (outside(root, target)) {
    return refuse(
      `"${requested}" resolves outside the worktree through a symlink; only files inside it can be used.`,
    );
  }
  if (touchesGit(root, target)) return refuse(gitMessage(requested));
  return {
    ok: true,
    root,
    absolute: target,
    relative: toRelative(root, target),
    exists: missing.length === 0,
  };
}

/** `/`-separated path of `absolute` relative to `root`, `.` for the root itself. */
function toRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join("/") || ".";
}

function outside(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute);
  return relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

/** A `.git` segment anywhere (submodules have their own), any case (case-insensitive file systems). */
function touchesGit(root: string, absolute: string): boolean {
  return path
    .relative(root, absolute)
    .split(path.sep)
    .some((segment) => segment.toLowerCase() === ".git");
}

function gitMessage(requested: string): string {
  return `"${requested}" is inside .git, which the agent may not read or write; use git commands through run_shell (git status, git diff, git log) instead.`;
}

function refuse(error: string): ResolvedPath {
  return { ok: false, error };
}
