/** A git command that exited non-zero, with what it printed (never the credentials, which travel in the environment). */
export class GitError extends Error {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(args: readonly string[], exitCode: number | null, stderr: string) {
    super(
      `git ${args.join(" ")} failed (exit ${exitCode ?? "?"}): ${stderr.trim().split("\n").slice(-5).join(" | ")}`,
    );
    this.name = "GitError";
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}
