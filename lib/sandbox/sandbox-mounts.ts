/**
 * What a sandbox mounts, worked out from the host's filesystem: the system directories, the
 * toolchains on PATH and the node binary, minus everything under the directories that must stay
 * out of sight (the home directory, the runner's temp and work directories, where the Action's
 * files, other actions' post scripts and the step's file commands live); and the git
 * directories of the worktree, which the agent may read but not write.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";

const SYSTEM_DIRS = ["/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

export interface HostMounts {
  readonly readOnly: string[];
  readonly symlinks: { target: string; path: string }[];
}

export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function real(path: string): string | undefined {
  try {
    const resolved = realpathSync(path);
    return statSync(resolved).isDirectory() ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** The runner's directories that no sandboxed process may see. */
export function hiddenRoots(env: Readonly<Record<string, string | undefined>>): string[] {
  const roots: string[] = [];
  for (const value of [env["HOME"], env["RUNNER_TEMP"]]) {
    if (value && isAbsolute(value)) roots.push(real(value) ?? value);
  }
  // The runner's work directory holds `_actions` (other actions' code and post scripts) and `_temp`.
  if (env["RUNNER_TEMP"] && isAbsolute(env["RUNNER_TEMP"]))
    roots.push(dirname(roots.at(-1) ?? env["RUNNER_TEMP"]));
  return roots.filter((root) => root !== "/");
}

export function hostMounts(env: Readonly<Record<string, string | undefined>>, node: string): HostMounts {
  const hidden = hiddenRoots(env);
  const readOnly = new Set<string>();
  const symlinks: { target: string; path: string }[] = [];
  for (const dir of SYSTEM_DIRS) {
    try {
      if (lstatSync(dir).isSymbolicLink()) symlinks.push({ target: readlinkSync(dir), path: dir });
      else readOnly.add(dir);
    } catch {
      // Not on this system.
    }
  }
  const covered = (dir: string) => [...readOnly].some((bound) => isInside(dir, bound));
  // Toolchains on PATH (setup-node, setup-python…), never a directory that contains or sits in a hidden one.
  for (const entry of (env["PATH"] ?? "").split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const dir = real(entry);
    if (dir === undefined || dir === "/" || covered(dir)) continue;
    if (hidden.some((root) => isInside(dir, root) || isInside(root, dir))) continue;
    readOnly.add(dir);
  }
  // The node that runs Locus, wherever it lives (inside the runner's own directory on GitHub).
  const nodeDir = dirname(realpathSync(node));
  if (!covered(nodeDir)) readOnly.add(nodeDir);
  return { readOnly: [...readOnly], symlinks };
}

/**
 * The git directories of a worktree: a checkout's `.git` is read-only; a linked worktree's
 * `.git` file points at its own directory (index, HEAD: writable, so `git status` and `git add`
 * work) inside the repository's common directory (config, hooks, objects, refs: read-only).
 */
export function gitMounts(worktree: string): { readOnlyGit: string[]; writableGit: string[] } {
  const dotGit = join(worktree, ".git");
  let stat;
  try {
    stat = lstatSync(dotGit);
  } catch {
    return { readOnlyGit: [], writableGit: [] };
  }
  if (stat.isDirectory()) return { readOnlyGit: [dotGit], writableGit: [] };
  if (!stat.isFile()) return { readOnlyGit: [], writableGit: [] };
  const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
  if (!match?.[1]) return { readOnlyGit: [], writableGit: [] };
  const own = real(resolve(worktree, match[1].trim()));
  if (own === undefined) return { readOnlyGit: [], writableGit: [] };
  let common = own;
  try {
    common = real(resolve(own, readFileSync(join(own, "commondir"), "utf8").trim())) ?? own;
  } catch {
    // A directory without `commondir` is its own common directory.
  }
  return common === own
    ? { readOnlyGit: [own], writableGit: [] }
    : { readOnlyGit: [common], writableGit: [own] };
}
