/**
 * The setup's download cache, kept between runs by the reusable workflow (`actions/cache`, keyed
 * on the lockfiles below) and handed to the Action as its `setup-cache` input. Only setup sees
 * it: its sandbox may write the directory, the agent's sandbox never mounts it, so nothing the
 * agent does reaches a later run through it.
 *
 * Only npm's cache is kept. A run's setup may follow a lockfile the agent wrote (an iterate round
 * on a Locus branch), so what it leaves in the cache must not be able to change what a later
 * install gets. npm's cache is content-addressed and verified against the lockfile's integrity
 * hash on every read (https://docs.npmjs.com/cli/v11/commands/npm-cache), so an entry can only be
 * used for the exact bytes it claims to be. Caches that read back unverified files, or that the
 * agent's own commands need after setup (Go's and Cargo's module caches), stay in the run's
 * sandbox home and are fetched again by each run.
 */
import { isAbsolute, join, relative, resolve } from "node:path";

/** The lockfiles whose content keys the cache: a changed lockfile starts a fresh cache entry. */
export const SETUP_CACHE_LOCKFILES: readonly string[] = ["package-lock.json", "npm-shrinkwrap.json"];

/**
 * The environment that points the package managers at the cache directory
 * (https://docs.npmjs.com/cli/v11/using-npm/config#environment-variables).
 */
export function setupCacheEnvironment(dir: string): Record<string, string> {
  return { npm_config_cache: join(dir, "npm") };
}

/**
 * The cache directory a run may use, or why not: inside the workspace the agent's worktree could
 * reach it, so there it is not used at all.
 */
export function usableSetupCache(
  dir: string | undefined,
  workspace: string,
): { readonly dir?: string; readonly refused?: string } {
  if (dir === undefined) return {};
  const inside = relative(resolve(workspace), resolve(dir));
  if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) {
    return {
      refused: `setup-cache ${dir} is inside the workspace, where the agent could write it; no cache is used.`,
    };
  }
  return { dir: resolve(dir) };
}
