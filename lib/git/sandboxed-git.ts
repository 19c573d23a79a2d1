/**
 * Git run inside the run's sandbox: every git command over a worktree (status, add, commit,
 * diff, rebase, checkout) goes through here once a sandbox exists, so whatever the worktree
 * makes git run (a filter or fsmonitor of a nested repository, a textconv, a hook) runs there
 * too, with no credential and no view of the runner. The repository's git directory is writable
 * for these commands only; the agent's own commands see it read-only.
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { execProgram, type ExecGit } from "./exec-git.ts";

export type GitSandbox = Pick<Sandbox, "wrap">;

export function sandboxedGit(sandbox: GitSandbox): ExecGit {
  return async (args, options) => {
    const wrapped = await sandbox.wrap("git", args, {
      cwd: options.cwd,
      env: options.env,
      // The committer and the config switches the runner set (never a credential: there is none).
      keep: Object.keys(options.env).filter((name) => name.startsWith("GIT_")),
      // Locus's git over a worktree never reaches the network: the remote is Locus's repository's business.
      offline: true,
      ...(options.mounts?.writable ? { writable: options.mounts.writable } : {}),
      ...(options.mounts?.readable ? { readable: options.mounts.readable } : {}),
    });
    return execProgram(wrapped.file, wrapped.args, args, {
      cwd: wrapped.cwd,
      env: wrapped.env,
      allowFailure: options.allowFailure,
    });
  };
}
