import { execFile } from "node:child_process";
import { GitError } from "./git-error.ts";

export interface GitExecResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** Host directories one sandboxed git command needs beyond the worktree (ignored on the host). */
export interface GitMounts {
  readonly writable?: readonly string[];
  readonly readable?: readonly string[];
}

export interface GitExecOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly allowFailure?: boolean | undefined;
  readonly mounts?: GitMounts | undefined;
}

export type ExecGit = (args: readonly string[], options: GitExecOptions) => Promise<GitExecResult>;

const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Runs `file` with an argument array (no shell), failing unless `allowFailure`; a failure is
 * reported as the git command `gitArgs`, whatever wrapper `file` is.
 */
function execProgram(
  file: string,
  argv: readonly string[],
  gitArgs: readonly string[],
  options: GitExecOptions,
): Promise<GitExecResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      [...argv],
      { cwd: options.cwd, env: options.env, encoding: "utf8", maxBuffer: MAX_OUTPUT },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        if (code === 0 || (options.allowFailure && code !== null)) {
          resolve({ stdout, stderr, exitCode: code ?? 0 });
          return;
        }
        reject(new GitError(gitArgs, code, stderr || (error?.message ?? "")));
      },
    );
  });
}

/** Runs git on the host: only for Locus's own repository, or where no sandbox is given (tests). */
export const execGit: ExecGit = (args, options) => execProgram("git", args, args, options);

/** Runs git on the host in Locus's own repository and answers its output as bytes (a blob, binary or not). */
export function execGitBytes(args: readonly string[], options: GitExecOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...args],
      { cwd: options.cwd, env: options.env, encoding: "buffer", maxBuffer: MAX_OUTPUT * 2 },
      (error, stdout, stderr) => {
        if (error)
          reject(new GitError(args, typeof error.code === "number" ? error.code : null, stderr.toString()));
        else resolve(stdout);
      },
    );
  });
}
