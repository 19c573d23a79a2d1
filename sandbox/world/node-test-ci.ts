/**
 * The sample repositories' CI: one job, `test`, that checks the commit out
 * and runs `node --test`, as a `.github/workflows/ci.yml` with
 * `on: pull_request` would. Its output becomes the step's log, so a failing
 * run reads as GitHub's would.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CiExecutor, CiJobSpec } from "../github-sim/index.ts";

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
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

export function nodeTestCi(node: string = process.execPath): CiExecutor {
  return async ({ gitDir, headSha }): Promise<CiJobSpec[]> => {
    const dir = await mkdtemp(join(tmpdir(), "sim-ci-"));
    try {
      await run("git", ["clone", "--quiet", "--no-checkout", gitDir, dir], tmpdir());
      await run("git", ["checkout", "--quiet", headSha], dir);
      const tests = await run(node, ["--test"], dir);
      return [
        {
          name: "test",
          steps: [
            { name: "actions/checkout@v5", output: `HEAD is now at ${headSha.slice(0, 7)}` },
            {
              name: "node --test",
              conclusion: tests.code === 0 ? "success" : "failure",
              output: tests.output,
            },
          ],
        },
      ];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
