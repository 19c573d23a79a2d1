/**
 * Walks the worktree the way `git ls-files --others --cached` sees it: `.gitignore` files at
 * every level apply (a deeper file can re-include with `!`), `.git` is never entered, and
 * symlinks are listed but never followed (a link may point outside the worktree).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

export interface WalkEntry {
  /** `/`-separated, relative to the worktree root. */
  readonly relative: string;
  readonly symlink: boolean;
}

interface IgnoreLevel {
  /** Directory of the `.gitignore`, relative to the root, `""` for the root. */
  readonly base: string;
  readonly rules: Ignore;
}

/** Files under `start` (a directory relative to `root`, `.` for all), in path order. */
export async function* walkFiles(root: string, start: string): AsyncGenerator<WalkEntry> {
  const startRelative = start === "." ? "" : start;
  const levels: IgnoreLevel[] = [];
  // The rules of the directories above `start`, and of `start` itself, apply below it.
  const ancestors = startRelative === "" ? [""] : ["", ...prefixes(startRelative)];
  for (const directory of ancestors) {
    const level = await loadLevel(root, directory);
    if (level) levels.push(level);
  }
  if (startRelative !== "" && isIgnored(startRelative, true, levels)) return;
  yield* walkDirectory(root, startRelative, levels);
}

async function* walkDirectory(
  root: string,
  directory: string,
  inherited: readonly IgnoreLevel[],
): AsyncGenerator<WalkEntry> {
  let entries;
  try {
    entries = await readdir(path.join(root, directory), { withFileTypes: true });
  } catch {
    // Unreadable directories are skipped like `git status` does, not reported as errors.
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.toLowerCase() === ".git") continue;
    const relative = directory === "" ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (isIgnored(relative, true, inherited)) continue;
      const level = await loadLevel(root, relative);
      yield* walkDirectory(root, relative, level ? [...inherited, level] : inherited);
    } else if (!isIgnored(relative, false, inherited)) {
      yield { relative, symlink: entry.isSymbolicLink() };
    }
  }
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`. */
function prefixes(relative: string): string[] {
  const parts = relative.split("/");
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}

async function loadLevel(root: string, directory: string): Promise<IgnoreLevel | undefined> {
  try {
    const text = await readFile(path.join(root, directory, ".gitignore"), "utf8");
    return { base: directory, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

/** Later (deeper) files override earlier ones, as in git. */
function isIgnored(relative: string, directory: boolean, levels: readonly IgnoreLevel[]): boolean {
  let ignored = false;
  for (const { base, rules } of levels) {
    const inside =
      base === "" ? relative : relative.startsWith(`${base}/`) ? relative.slice(base.length + 1) : "";
    if (inside === "") continue;
    const result = rules.test(directory ? `${inside}/` : inside);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
