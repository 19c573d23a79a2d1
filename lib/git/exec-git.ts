import { execFile } from "node:child_process";
import { GitError } from "./git-error.ts";

export interface GitExecResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export type ExecGit = (
  args: readonly string[],
  options: { cwd: string; env: Readonly<Record<string, string>>; allowFailure?: boolean },
) => Promise<GitExecResult>;

const MAX_OUTPUT = 64 * 1024 * 1024;

/** Runs git with an argument array (no shell), failing unless `allowFailure`. */
export const execGit: ExecGit = (args, options) =>
  new Promise((resolve, reject) => {
    execFile(
      "git",
      [...args],
      { cwd: options.cwd, env: options.env, encoding: "utf8", maxBuffer: MAX_OUTPUT },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        if (code === 0 || (options.allowFailure && code !== null)) {
          resolve({ stdout, stderr, exitCode: code ?? 0 });
          return;
        }
        reject(new GitError(args, code, stderr || (error?.message ?? "")));
      },
    );
  });
