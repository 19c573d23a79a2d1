/**
 * The sandbox's cost per command: `run_shell` with `true`, `node -e ''` and a small `node --test`
 * run, inside the bubblewrap sandbox and outside it, interleaved in one run so load from other jobs
 * falls on both alike. Reports p50 and p95 of each and the added latency at p50 (goal ≤ 25 ms).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShellTool } from "../../lib/agent/tools/run-shell.ts";
import type { ToolContext } from "../../lib/agent/tool.ts";
import { createSandbox } from "../../lib/sandbox/create-sandbox.ts";
import { probeBubblewrap } from "../../lib/sandbox/probe.ts";
import { atMost, percentile, sample, timePair } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure, Skipped } from "../lib/types.ts";

const BENCH = "sandbox";
const COMMANDS = ["true", "node -e ''", "node --test --test-reporter=dot"];

export const sandboxBenchmark: Benchmark = {
  name: BENCH,
  description: "run_shell latency inside vs outside the bubblewrap sandbox",
  async run(ctx: BenchContext): Promise<(Figure | Skipped)[]> {
    const probe = probeBubblewrap(process.env["PATH"]);
    if (!probe.ok) return [{ benchmark: BENCH, skipped: probe.reason }];
    const dir = await mkdtemp(join(tmpdir(), "locus-bench-sandbox-"));
    await writeFile(
      join(dir, "add.test.js"),
      'import test from "node:test";\nimport assert from "node:assert";\ntest("adds", () => assert.equal(1 + 1, 2));\n',
    );
    await writeFile(join(dir, "package.json"), '{"type":"module"}\n');
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const sandbox = await createSandbox({
      mode: "required",
      allow: ["registry.npmjs.org"],
      env: process.env,
    });
    const env = { PATH: process.env["PATH"] ?? "", HOME: dir, LANG: "C.UTF-8" };
    const base: ToolContext = {
      cwd: dir,
      signal: new AbortController().signal,
      shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
      hooks: [],
      env,
      onQuestion: () => undefined,
    };
    const figures: Figure[] = [];
    try {
      for (const command of COMMANDS) {
        const run = (context: ToolContext) => async () => {
          const result = await runShellTool.run({ command }, context);
          if (result.isError) throw new Error(`${command}: ${result.content}`);
        };
        const [inside, outside] = await timePair(ctx.repeats(30), run({ ...base, sandbox }), run(base));
        const added = sample(inside).median - sample(outside).median;
        ctx.log(
          `${command}: inside p50 ${percentile(inside, 50).toFixed(1)} p95 ${percentile(inside, 95).toFixed(1)} ms; outside p50 ${percentile(outside, 50).toFixed(1)} p95 ${percentile(outside, 95).toFixed(1)} ms`,
        );
        figures.push({
          benchmark: BENCH,
          name: `run_shell \`${command}\` in the sandbox (p95 ${percentile(inside, 95).toFixed(1)} ms vs ${percentile(outside, 95).toFixed(1)} ms outside)`,
          unit: "ms",
          value: sample(inside),
          baseline: { name: "unsandboxed", value: sample(outside) },
          ratio: sample(inside).median / sample(outside).median,
          goals: [atMost("≤ 25 ms added at p50", added, 25)],
          note: `added at p50: ${added.toFixed(1)} ms`,
        });
      }
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
    return figures;
  },
};
