/**
 * What a sandbox mounts, worked out from the host's filesystem: the system directories, the
 * toolchains on PATH and the node binary, minus everything under the directories that must stay
 * out of sight (the home directory, the runner's temp and work directories, where the Action's
 * files, other actions' post scripts and the step's file commands live, and a self-hosted
 * runner's own directory with its credentials); and the git
 * directories of the worktree, which the agent may read but not write.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { gitDirsOf } from "./git-dirs.ts";

const SYSTEM_DIRS = ["/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

export interface HostMounts {
  readonly readOnly: string[];
  readonly symlinks: { target: string; path: string }[];
  /** Hidden directories that sit inside a read-only one (a self-hosted runner under /opt): covered by an empty tmpfs. */
  readonly masked: string[];
  /** Directories inside a masked one that stay visible, read-only: the node running Locus. */
  readonly unmasked: string[];
}

export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** `chdir` (WrapOptions) as an absolute path under the worktree; anything that leads out is refused. */
export function startDirectory(worktree: string, chdir: string): string {
  const dir = resolve(worktree, chdir);
  if (!isInside(dir, resolve(worktree))) throw new Error(`${chdir} is outside the worktree ${worktree}`);
  return dir;
}

function real(path: string): string | undefined {
  try {
    const resolved = realpathSync(path);
    return statSync(resolved).isDirectory() ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A self-hosted runner's own directory, where its registration and credentials live (`.runner`,
 * `.credentials`, `.credentials_rsaparams`) and its logs (`_diag`). Found from the node that runs
 * Locus, which is the runner's own (`<runner>/externals/node<N>/bin/node`), and from RUNNER_TEMP,
 * `<runner>/_work/_temp` unless the work folder was moved; a candidate counts only when it holds
 * the `.runner` file the runner's configuration writes.
 */
function runnerRoots(env: Readonly<Record<string, string | undefined>>, node: string): string[] {
  const candidates: string[] = [];
  const nodePath = realFile(node);
  if (nodePath && /\/externals\/node[0-9]*\/bin\/node$/.test(nodePath))
    candidates.push(dirname(dirname(dirname(dirname(nodePath)))));
  const temp = env["RUNNER_TEMP"];
  if (temp && isAbsolute(temp)) candidates.push(dirname(dirname(real(temp) ?? temp)));
  return [...new Set(candidates)].filter((dir) => {
    try {
      return statSync(join(dir, ".runner")).isFile();
    } catch {
      return false;
    }
  });
}

function realFile(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The runner's directories that no sandboxed process may see. */
function hiddenRoots(env: Readonly<Record<string, string | undefined>>, node: string): string[] {
  const roots: string[] = [];
  for (const value of [env["HOME"], env["RUNNER_TEMP"]]) {
    if (value && isAbsolute(value)) roots.push(real(value) ?? value);
  }
  // The runner's work directory holds `_actions` (other actions' code and post scripts) and `_temp`.
  if (env["RUNNER_TEMP"] && isAbsolute(env["RUNNER_TEMP"]))
    roots.push(dirname(roots.at(-1) ?? env["RUNNER_TEMP"]));
  roots.push(...runnerRoots(env, node));
  return [...new Set(roots)].filter((root) => root !== "/");
}

export function hostMounts(env: Readonly<Record<string, string | undefined>>, node: string): HostMounts {
  const hidden = hiddenRoots(env, node);
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
  const masked = hidden.filter((root) => covered(root));
  // A self-hosted runner under /opt is masked whole; its node stays visible on top of the mask.
  const unmasked = masked.some((root) => isInside(nodeDir, root)) ? [nodeDir] : [];
  return { readOnly: [...readOnly], symlinks, masked, unmasked };
}

/**
 * The git metadata of a worktree, all read-only: the repository's config, hooks, objects and
 * refs, a linked worktree's own directory (whose `commondir` says where the config is) and its
 * `.git` file (which says where that directory is). The agent's `git status`, `diff` and `log`
 * work; anything that writes git state is Locus's to do.
 */
export function gitMounts(worktree: string): { readOnlyGit: string[] } {
  const dirs = gitDirsOf(worktree);
  if (dirs === undefined) return { readOnlyGit: [] };
  const mounts = new Set([dirs.common, dirs.own]);
  // The `.git` entry itself (a symlinked `.git` directory is bound where the worktree names it).
  mounts.add(dirs.dotGit);
  return { readOnlyGit: [...mounts] };
}
