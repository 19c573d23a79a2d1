/**
 * The sample repositories' CI: one job, `test`, that checks the commit out
 * and runs `node --test`, as a `.github/workflows/ci.yml` with
 * `on: pull_request` would. Its output becomes the step's log, so a failing
 * run reads as GitHub's would.
 *
 * The commit's files come straight out of the bare repository (`git archive`,
 * no clone), and the test files run in one Node process
 * (`--test-isolation=none`, https://nodejs.org/api/cli.html#--test-isolationmode)
 * instead of one child per file: the same tests and the same report of a
 * failure, at a fraction of the processes, since the sandbox runs this on
 * every new pull request head and its checks run it again.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CiExecutor, CiJobSpec } from "../github-sim/index.ts";

interface Ran {
  readonly code: number;
  readonly output: string;
}

function run(cmd: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env: { PATH: process.env["PATH"] ?? "", NODE_OPTIONS: "" }, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          output: `${stdout}${stderr}`,
        }),
    );
  });
}

/**
 * Writes the files of `rev` in the repository at `gitDir` (a bare one, or a clone's top folder) into `dir`:
 * `git archive | tar -x`.
 */
export function exportCommit(gitDir: string, rev: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn("git", ["-C", gitDir, "archive", "--format=tar", rev], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const untar = spawn("tar", ["-x", "-C", dir], { stdio: ["pipe", "ignore", "pipe"] });
    archive.stdout.pipe(untar.stdin);
    let errors = "";
    archive.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    untar.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const exited = (child: typeof archive | typeof untar) =>
      new Promise<number | null>((done) => {
        child.on("error", () => done(-1));
        child.on("close", (code) => done(code));
      });
    void Promise.all([exited(archive), exited(untar)]).then(([archived, untarred]) =>
      archived === 0 && untarred === 0
        ? resolve()
        : reject(new Error(`could not export ${rev}: ${errors.trim() || "git archive | tar failed"}`)),
    );
  });
}

/**
 * Runs the sample project's `node --test` on `rev` of `gitDir`, in a temporary directory it then removes;
 * throws when `rev` cannot be checked out.
 */
export async function runNodeTests(
  gitDir: string,
  rev: string,
  node: string = process.execPath,
): Promise<Ran> {
  const dir = await mkdtemp(join(tmpdir(), "sim-ci-"));
  try {
    await exportCommit(gitDir, rev, dir);
    return await run(node, ["--test", "--test-isolation=none"], dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function nodeTestCi(node: string = process.execPath): CiExecutor {
  return async ({ gitDir, headSha }): Promise<CiJobSpec[]> => {
    const checkout = { name: "actions/checkout@v5", output: `HEAD is now at ${headSha.slice(0, 7)}` };
    let tests: Ran;
    try {
      tests = await runNodeTests(gitDir, headSha, node);
    } catch (error) {
      const output = error instanceof Error ? error.message : String(error);
      return [{ name: "test", steps: [{ ...checkout, conclusion: "failure", output }] }];
    }
    return [
      {
        name: "test",
        steps: [
          checkout,
          { name: "node --test", conclusion: tests.code === 0 ? "success" : "failure", output: tests.output },
        ],
      },
    ];
  };
}
