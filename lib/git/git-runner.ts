/**
 * How every git command of a client runs: with prompts, hooks and fsmonitor
 * off, system config ignored, the committer set, and (for commands that reach
 * the remote) only https, file or loopback http allowed, credentials added last
 * and the repository's config restored to what the guard recorded. Apart
 * from the client's methods because this is the security boundary around git,
 * read on its own.
 */
import { createConfigGuard, type ConfigGuard } from "./config-guard.ts";
import { execGit, type GitExecResult } from "./exec-git.ts";
import type { GitClientOptions, RemoteAccess } from "./git-client-types.ts";
import { NO_AUTH } from "./push-auth.ts";

/** One git command of a client, and where its remote commands go. */
export interface GitRunner {
  readonly git: (
    args: readonly string[],
    extra?: { remote?: RemoteAccess; allowFailure?: boolean },
  ) => Promise<GitExecResult>;
  /** The remote's name (for refs under `refs/remotes/`). */
  readonly remote: string;
  /** The remote's URL read before the agent ran, or its name when none was given. */
  readonly target: string;
  readonly guard: ConfigGuard;
}

export function createGitRunner(options: GitClientOptions): GitRunner {
  const exec = options.exec ?? execGit;
  const remote = options.remote ?? "origin";
  const auth = options.auth ?? NO_AUTH;
  const baseEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env)) {
    if (value !== undefined && !name.startsWith("GIT_")) baseEnv[name] = value;
  }
  Object.assign(baseEnv, {
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: options.identity.name,
    GIT_AUTHOR_EMAIL: options.identity.email,
    GIT_COMMITTER_NAME: (options.identity.committer ?? options.identity).name,
    GIT_COMMITTER_EMAIL: (options.identity.committer ?? options.identity).email,
  });
  const target = options.remoteUrl ?? remote;
  const guard = options.guard ?? createConfigGuard(options.onConfigReverted ?? (() => undefined));
  guard.protect(options.cwd);
  // No hooks and no fsmonitor program for any command: the agent can write the worktree.
  const SAFE = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "advice.detachedHead=false",
    // Locus's own commands leave the config as the guard recorded it (no tracking sections).
    "-c",
    "branch.autoSetupMerge=false",
  ];
  // Only https and local paths for the remote: no ext::, ssh (core.sshCommand), git:// or others;
  // plain http only to a loopback remote read before the agent ran (a local GitHub such as the simulator).
  const REMOTE_SAFE = [
    "-c",
    "protocol.allow=never",
    "-c",
    "protocol.https.allow=always",
    "-c",
    "protocol.file.allow=always",
    ...(plainHttpLoopback(target) ? ["-c", "protocol.http.allow=always"] : []),
    "-c",
    "core.sshCommand=false",
    "-c",
    "credential.helper=",
  ];

  async function git(args: readonly string[], extra: { remote?: RemoteAccess; allowFailure?: boolean } = {}) {
    const credentials =
      extra.remote === undefined ? undefined : typeof auth === "function" ? await auth(extra.remote) : auth;
    if (extra.remote) guard.restore();
    return exec([...SAFE, ...(extra.remote ? REMOTE_SAFE : []), ...args], {
      cwd: options.cwd,
      // Global config off too for the commands that carry a credential (set last: auth cannot undo it).
      env: credentials
        ? { ...baseEnv, ...credentials.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" }
        : baseEnv,
      allowFailure: extra.allowFailure,
    });
  }

  return { git, remote, target, guard };
}

/** A remote on this machine over plain http (GitHub Enterprise on loopback, or the simulator). */
function plainHttpLoopback(url: string): boolean {
  if (!url.startsWith("http://")) return false;
  try {
    const { hostname } = new URL(url);
    return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
  } catch {
    return false;
  }
}
