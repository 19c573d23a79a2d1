/**
 * The sandbox's cost per command: `run_shell` with `true`, `node -e ''` and a small `node --test`
 * run three ways, interleaved in one run so load from other jobs falls on all alike: in the run's
 * sandbox session (what Locus does), unsandboxed (the baseline), and in a bubblewrap sandbox and
 * relay of its own per command (what Locus did before sessions). Reports p50 and p95 of each and
 * the added latency at p50 (goal ≤ 3 ms); then the 20-turn replay (replay.ts), so one
 * `npm run bench -- sandbox` shows both.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShellTool } from "../../lib/agent/tools/run-shell.ts";
import type { ToolContext } from "../../lib/agent/tool.ts";
import { createSandbox } from "../../lib/sandbox/create-sandbox.ts";
import { runHostCommand } from "../../lib/sandbox/host-command.ts";
import { probeBubblewrap } from "../../lib/sandbox/probe.ts";
import type { Sandbox } from "../../lib/sandbox/sandbox.ts";
import { atMost, percentile, sample } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure, Skipped } from "../lib/types.ts";
import { runReplay } from "./replay.ts";

const BENCH = "sandbox";
const COMMANDS = ["true", "node -e ''", "node --test --test-reporter=dot"];

export const sandboxBenchmark: Benchmark = {
  name: BENCH,
  description:
    "run_shell latency in the sandbox session vs unsandboxed vs a sandbox per command; 20-turn replay",
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
    const figures: (Figure | Skipped)[] = [];
    const perCommand = sandboxPerCommand(sandbox);
    try {
      for (const command of COMMANDS) {
        const run = (context: ToolContext) => async () => {
          const result = await runShellTool.run({ command }, context);
          if (result.isError) throw new Error(`${command}: ${result.content}`);
        };
        const [session, outside, old] = await timeInterleaved(ctx.repeats(30), [
          run({ ...base, sandbox }),
          run(base),
          run({ ...base, sandbox: perCommand }),
        ]);
        const p = (times: number[], n: number) => percentile(times, n).toFixed(1);
        const added = sample(session).median - sample(outside).median;
        const oldAdded = sample(old).median - sample(outside).median;
        ctx.log(
          `${command}: session p50 ${p(session, 50)} p95 ${p(session, 95)} ms; unsandboxed p50 ${p(outside, 50)} p95 ${p(outside, 95)} ms; sandbox per command p50 ${p(old, 50)} p95 ${p(old, 95)} ms`,
        );
        figures.push({
          benchmark: BENCH,
          name: `run_shell \`${command}\` in the sandbox session (p95 ${p(session, 95)} ms vs ${p(outside, 95)} ms unsandboxed)`,
          unit: "ms",
          value: sample(session),
          baseline: { name: "unsandboxed", value: sample(outside) },
          ratio: sample(session).median / sample(outside).median,
          goals: [atMost("≤ 3 ms added at p50", added, 3)],
          note: `added at p50: ${added.toFixed(1)} ms; a sandbox per command (before sessions): ${sample(old).median.toFixed(1)} ms, +${oldAdded.toFixed(1)} ms`,
        });
      }
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
    figures.push(...(await runReplay(ctx)));
    return figures;
  },
};

/** The sandbox as it was before sessions: every command in a bubblewrap sandbox and relay of its own. */
function sandboxPerCommand(sandbox: Sandbox): Sandbox {
  return {
    ...sandbox,
    exec: async (request, options) =>
      runHostCommand(await sandbox.wrap(request.file, request.args, options), request),
  };
}

/** Times alternatives in turn (a, b, c, a, b, c, …) after one untimed run of each. */
async function timeInterleaved(
  runs: number,
  alternatives: [() => Promise<unknown>, () => Promise<unknown>, () => Promise<unknown>],
): Promise<[number[], number[], number[]]> {
  for (const run of alternatives) await run();
  const times: [number[], number[], number[]] = [[], [], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, run] of alternatives.entries()) {
      const start = performance.now();
      await run();
      times[index]!.push(performance.now() - start);
    }
  }
  return times;
}
