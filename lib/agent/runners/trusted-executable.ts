/**
 * Where an agent's program (config `agent.acp.command`, an MCP server's `command`) is found. The
 * program holds credentials, so it must never come from the repository's side: the worktree the
 * agent writes, or the checkout a hostile repository fills. An absolute path is taken as written;
 * a bare name is looked up in the absolute directories of PATH outside those trees, then in the
 * Action's own `node_modules/.bin`; a relative path (`./agent`, `bin/agent`) is refused, since it
 * could only mean a file in the worktree. The answer is the program's real path (links followed),
 * which is checked against the same trees, so a link on PATH cannot lead back into them.
 */
import { constants, existsSync } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isInside } from "../../sandbox/sandbox-mounts.ts";

export type TrustedExecutable =
  { readonly found: true; readonly path: string } | { readonly found: false; readonly reason: string };

export interface TrustedLookup {
  readonly path: string | undefined;
  /** Trees the program must not come from: the worktree, the repository's checkout. */
  readonly untrusted: readonly string[];
  /** Searched after PATH: the Action's own `node_modules/.bin`. */
  readonly extraDirs?: readonly string[];
}

/** The `node_modules/.bin` of the package this code runs from (the Action, or this repository in tests). */
export function actionBinDirs(): string[] {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return [join(dir, "node_modules", ".bin")];
    const parent = dirname(dir);
    if (parent === dir) return [];
    dir = parent;
  }
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

async function executableFile(path: string): Promise<string | undefined> {
  try {
    await access(path, constants.X_OK);
    const real = await realpath(path);
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

export async function findTrustedExecutable(name: string, lookup: TrustedLookup): Promise<TrustedExecutable> {
  const untrusted = await Promise.all(lookup.untrusted.filter(isAbsolute).map(realOrSelf));
  const outside = (path: string) => !untrusted.some((root) => isInside(path, root));
  const refusedInside = {
    found: false,
    reason: `\`${name}\` lies inside the repository's worktree or checkout, where the agent or the repository could plant it; install it outside and name it on PATH or by an absolute path`,
  } as const;
  if (isAbsolute(name)) {
    const real = await executableFile(name);
    if (real === undefined) return { found: false, reason: `\`${name}\` is not an executable file` };
    return outside(real) ? { found: true, path: real } : refusedInside;
  }
  if (name.includes("/")) {
    return {
      found: false,
      reason: `\`${name}\` is a relative path, which would run a file from the repository's worktree, where the agent or the repository could plant it; name a program on PATH or give an absolute path`,
    };
  }
  const pathDirs = (lookup.path ?? "").split(delimiter).filter((dir) => isAbsolute(dir));
  for (const dir of [...pathDirs, ...(lookup.extraDirs ?? [])]) {
    if (!outside(await realOrSelf(dir))) continue;
    const real = await executableFile(join(dir, name));
    if (real !== undefined && outside(real)) return { found: true, path: real };
  }
  return {
    found: false,
    reason: `\`${name}\` was not found on PATH (outside the repository's worktree) nor in the Action's node_modules/.bin`,
  };
}
