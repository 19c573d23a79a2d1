/**
 * What a task commits: the files the agent wrote or edited, changes to
 * tracked files, and new files its commands created that no ignore rule
 * covers — except scratch directories and build outputs a command left
 * behind (`tmp/`, `dist/`, `node_modules/`, …, or a `*.log`), which would
 * pollute the pull request. A directory the repository already tracks files
 * in is the project's own, so its new files are kept. Pure.
 */
import type { SecretHit } from "../secrets/secrets-in-diff.ts";

const SCRATCH_DIRS = new Set([
  "tmp",
  "temp",
  ".tmp",
  "scratch",
  ".cache",
  "dist",
  "build",
  "out",
  "coverage",
  ".nyc_output",
  "node_modules",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  "target",
  ".next",
  ".turbo",
]);
const SCRATCH_SUFFIXES = [".log", ".pyc", ".o", ".tmp"];

/** The scratch directory a path lies in (`a/dist`), or the path itself for a scratch file; undefined otherwise. */
function scratchOf(path: string): string | undefined {
  const parts = path.split("/");
  const at = parts.slice(0, -1).findIndex((part) => SCRATCH_DIRS.has(part));
  if (at >= 0) return parts.slice(0, at + 1).join("/");
  return SCRATCH_SUFFIXES.some((suffix) => path.endsWith(suffix)) ? path : undefined;
}

/**
 * The untracked paths to leave out of the commit. `written` are the paths the
 * agent's own tools wrote (always kept); `tracked` the repository's tracked
 * files (a scratch-named directory holding any of them is the project's).
 */
export function scratchFiles(
  untracked: readonly string[],
  written: readonly string[],
  tracked: readonly string[],
): string[] {
  const own = new Set(written);
  const left: string[] = [];
  for (const path of untracked) {
    if (own.has(path)) continue;
    const scratch = scratchOf(path);
    if (scratch === undefined) continue;
    if (scratch !== path && tracked.some((file) => file.startsWith(`${scratch}/`))) continue;
    left.push(path);
  }
  return left;
}

/** The line a summary gets when files were left out because they would have committed a secret. */
export function withheldNote(hits: readonly SecretHit[]): string {
  if (hits.length === 0) return "";
  const shown = hits.slice(0, 20).map((hit) => `\`${hit.path.replace(/`/g, "'")}\` (${hit.what})`);
  const more = hits.length > 20 ? ` and ${hits.length - 20} more` : "";
  return `Left out of the commit because they would have published a secret: ${shown.join(", ")}${more}.`;
}

/** The line a pull request's summary gets when files were left out. */
export function leftOutNote(paths: readonly string[]): string {
  if (paths.length === 0) return "";
  const shown = paths.slice(0, 20).map((path) => `\`${path.replace(/`/g, "'")}\``);
  const more = paths.length > 20 ? ` and ${paths.length - 20} more` : "";
  return `Left out of the commit (scratch files or build output the agent's commands created): ${shown.join(", ")}${more}.`;
}
