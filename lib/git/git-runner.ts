/**
 * How every git command over a worktree runs: inside the run's sandbox when there is one
 * (sandboxed-git.ts), with prompts, hooks, fsmonitor and submodule recursion off, global and
 * system config ignored, the committer set, and the repository's config restored to what the
 * guard recorded before the agent ran. None of these commands carries a credential or reaches
 * the remote: that is Locus's own repository's job (locus-repository.ts). Apart from the
 * client's methods because this is the boundary around git, read on its own.
 */
import { mkdir } from "node:fs/promises";
import { createConfigGuard, type ConfigGuard } from "./config-guard.ts";
import { execGit, type GitExecResult, type GitMounts } from "./exec-git.ts";
import type { GitClientOptions } from "./git-client-types.ts";
import { gitDirsOf } from "../sandbox/git-dirs.ts";
import { sandboxedGit } from "./sandboxed-git.ts";
import { NO_REPOSITORY_PROGRAMS } from "./no-repository-programs.ts";

/** One git command of a client. */
export interface GitRunner {
  readonly git: (
    args: readonly string[],
    extra?: { allowFailure?: boolean; mounts?: GitMounts },
  ) => Promise<GitExecResult>;
  readonly guard: ConfigGuard;
  /** The repository's shared git directory, as found when the first client was made. */
  readonly gitDir: string | undefined;
}

// No hooks, no fsmonitor program and no descent into nested repositories for any command: the
// agent can write the worktree, and a "submodule" there is a repository with its own config.
const SAFE = [
  ...NO_REPOSITORY_PROGRAMS,
  "-c",
  "diff.ignoreSubmodules=all",
  "-c",
  "status.submoduleSummary=false",
  "-c",
  "advice.detachedHead=false",
  // Locus's own commands leave the config as the guard recorded it (no tracking sections).
  "-c",
  "branch.autoSetupMerge=false",
  // No `git maintenance run --auto` after each fetch and commit: a run's repository lives for one run.
  "-c",
  "maintenance.auto=false",
];

/**
 * The directories every command of a client mounts besides its git directory, so that Locus's git in
 * one worktree runs in one sandbox session rather than one per set of extra mounts (a session start
 * is a bubblewrap and a node process): Locus's repository (read by `fetchBranches`), the directory
 * bundles cross to the host in (written by a push), and for the client of the checkout the directory
 * its worktrees are added in. Only with `repositoryPath`: otherwise the directories are made per
 * command, as they are needed.
 */
export function standingMounts(options: GitRunnerOptions) {
  if (options.repositoryPath === undefined) return { readable: [], writable: [] };
  return {
    readable: [options.repositoryPath],
    writable: [bundlesDir(options.repositoryPath), ...(options.worktreesDir ? [options.worktreesDir] : [])],
  };
}

export const bundlesDir = (repositoryPath: string) => `${repositoryPath}-bundles`;

/** The commit `ref` names, or null when it names none (a repository without commits, a missing branch). */
export async function revParseCommit(git: GitRunner["git"], ref: string): Promise<string | null> {
  const result = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { allowFailure: true });
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/** A client's options; without an identity its commands can read but carry no author to commit with. */
export type GitRunnerOptions = Omit<GitClientOptions, "identity"> &
  Partial<Pick<GitClientOptions, "identity">>;

/**
 * `standing`: directories every command of this client mounts (made before the first), so that
 * all its commands share one sandbox session instead of starting one per set of extra mounts.
 */
export function createGitRunner(options: GitRunnerOptions, standing: GitMounts = {}): GitRunner {
  const exec = options.exec ?? (options.sandbox ? sandboxedGit(options.sandbox) : execGit);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env)) {
    if (value !== undefined && !name.startsWith("GIT_")) env[name] = value;
  }
  Object.assign(env, {
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  });
  if (options.identity) {
    Object.assign(env, {
      GIT_AUTHOR_NAME: options.identity.name,
      GIT_AUTHOR_EMAIL: options.identity.email,
      GIT_COMMITTER_NAME: (options.identity.committer ?? options.identity).name,
      GIT_COMMITTER_EMAIL: (options.identity.committer ?? options.identity).email,
    });
  }
  const guard = options.guard ?? createConfigGuard(options.onConfigReverted ?? (() => undefined));
  guard.protect(options.cwd);
  // Recorded before the agent ran (the first client), never re-read from a `.git` file it could rewrite.
  const gitDir = options.gitDir ?? gitDirsOf(options.cwd)?.common;

  let made: Promise<unknown> | undefined;
  async function git(args: readonly string[], extra: { allowFailure?: boolean; mounts?: GitMounts } = {}) {
    await (made ??= Promise.all(
      [...(standing.readable ?? []), ...(standing.writable ?? [])].map((dir) =>
        mkdir(dir, { recursive: true }),
      ),
    ));
    guard.restore();
    return exec([...SAFE, ...args], {
      cwd: options.cwd,
      env,
      allowFailure: extra.allowFailure,
      mounts: {
        // Each once: a session is kept per set of mounts.
        writable: [
          ...new Set([
            ...(gitDir ? [gitDir] : []),
            ...(standing.writable ?? []),
            ...(extra.mounts?.writable ?? []),
          ]),
        ],
        readable: [...new Set([...(standing.readable ?? []), ...(extra.mounts?.readable ?? [])])],
      },
    });
  }

  return { git, guard, gitDir };
}
