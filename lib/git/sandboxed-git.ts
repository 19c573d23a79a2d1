/**
 * Git run inside the run's sandbox: every git command over a worktree (status, add, commit,
 * diff, rebase, checkout) goes through here once a sandbox exists, so whatever the worktree
 * makes git run (a filter or fsmonitor of a nested repository, a textconv, a hook) runs there
 * too, with no credential and no view of the runner. The repository's git directory is writable
 * for these commands only; the agent's own commands see it read-only. The commands run in the
 * sandbox's session for these mounts (`Sandbox.exec`), one the agent's commands never share.
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { GitError } from "./git-error.ts";
import type { ExecGit } from "./exec-git.ts";

export type GitSandbox = Pick<Sandbox, "exec">;

/** What a git command may print before it counts as failed (as `execFile`'s maxBuffer did). */
const MAX_OUTPUT = 64 * 1024 * 1024;
/** Git over a worktree is local work; this only ends a command that hangs. */
const TIMEOUT_MS = 30 * 60 * 1000;

export function sandboxedGit(sandbox: GitSandbox): ExecGit {
  return async (args, options) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const outcome = await sandbox
      .exec(
        {
          file: "git",
          args,
          timeoutMs: TIMEOUT_MS,
          headBytes: MAX_OUTPUT,
          tailBytes: 0,
          onOutput: (stream, chunk) => (stream === 1 ? out : err).push(chunk),
        },
        {
          cwd: options.cwd,
          env: options.env,
          // The committer and the config switches the runner set (never a credential: there is none).
          keep: Object.keys(options.env).filter((name) => name.startsWith("GIT_")),
          // Locus's git over a worktree never reaches the network: the remote is Locus's repository's business.
          offline: true,
          ...(options.mounts?.writable ? { writable: options.mounts.writable } : {}),
          ...(options.mounts?.readable ? { readable: options.mounts.readable } : {}),
        },
      )
      .catch((error: unknown) => {
        throw new GitError(args, null, error instanceof Error ? error.message : String(error));
      });
    const stdout = Buffer.concat(out).toString("utf8");
    const stderr = Buffer.concat(err).toString("utf8");
    if (outcome.spawnError !== undefined) throw new GitError(args, null, outcome.spawnError);
    if (outcome.droppedBytes > 0) throw new GitError(args, null, `more than ${MAX_OUTPUT} bytes of output`);
    if (outcome.timedOut) throw new GitError(args, null, `timed out after ${TIMEOUT_MS / 1000} s`);
    if (outcome.exitCode === 0 || options.allowFailure) return { stdout, stderr, exitCode: outcome.exitCode };
    return Promise.reject(new GitError(args, outcome.exitCode, stderr || `exit code ${outcome.exitCode}`));
  };
}
