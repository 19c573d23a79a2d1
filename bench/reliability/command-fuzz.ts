/**
 * Hostile comments (docs/reliability.md) at full size: 10,000 seeded hostile `/locus` comments (the generator of
 * test/reliability/command-fuzz.ts), each on its own issue, spread over INSTALLATIONS
 * installations, delivered signed by the simulator to the real app. `npm test` runs the same
 * row on a small sample; this is the count docs/reliability.md reports.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { startGitHubSimulator } from "../../sandbox/github-sim/index.ts";
import type { RepoSeeder } from "../../sandbox/github-sim/index.ts";
import { simulatedRunName, startAppOnSimulator } from "../../sandbox/world/app-on-simulator.ts";
import { canaryPath, judge, postCases, sampleCases } from "../../test/reliability/command-fuzz.ts";
import { atMost, exact, holds } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure } from "../lib/types.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

const BENCH = "command-fuzz";
const COMMENTS = 10_000;
const INSTALLATIONS = 20;
const SEED = 20_261_124;
const SECRET = "bench-fuzz-webhook-secret-0123456789abcdef";

async function run(ctx: BenchContext): Promise<Figure[]> {
  const dir = await mkdtemp(path.join(tmpdir(), "locus-fuzz-bench-"));
  // Runs stay queued: no runner, so nothing but the app's own answers lands on the issues.
  const sim = await startGitHubSimulator({ webhooks: { secret: SECRET }, runName: simulatedRunName });
  const app = await startAppOnSimulator(sim, { secret: SECRET, log: pino({ level: "silent" }) });
  try {
    const repos: RepoSeeder[] = [];
    for (let i = 1; i <= INSTALLATIONS; i++) {
      const repo = await sim.seed.repo(`fuzz-${i}/demo`, {
        files: { "README.md": "# fuzz\n", ...callerWorkflowFiles() },
      });
      repo.collaborator("alice", "write").collaborator("eve", "read");
      repos.push(repo);
    }
    const canary = canaryPath(dir);
    const cases = sampleCases(COMMENTS, SEED, canary);
    ctx.log(`posting ${COMMENTS} comments over ${INSTALLATIONS} installations…`);
    const started = performance.now();
    const posted = await postCases(sim, app.webhookUrl, repos, cases, 20);
    await app.settle({ runs: false });
    const seconds = (performance.now() - started) / 1000;
    const verdict = judge(sim, cases, posted, canary);
    ctx.log(`done in ${Math.round(seconds)} s: ${JSON.stringify(verdict)}`);
    const tampered = cases.filter((c) => c.tampered).length;
    const shape = `${COMMENTS.toLocaleString("en-US")} fuzzed comments`;
    return [
      {
        benchmark: BENCH,
        name: `${shape}: deliveries answered other than 2xx`,
        unit: "",
        value: exact(verdict.failedDeliveries),
        goals: [atMost("0 (no crash, no 5xx)", verdict.failedDeliveries, 0)],
        note: `${verdict.deliveries} deliveries in ${Math.round(seconds)} s`,
      },
      {
        benchmark: BENCH,
        name: `${shape}: comments with a wrong dispatch count`,
        unit: "",
        value: exact(verdict.wrongDispatch),
        baseline: { name: "valid runs from a writer", value: exact(verdict.expectedDispatches) },
        goals: [
          holds(
            "valid runs dispatched exactly once, nothing else dispatched",
            verdict.wrongDispatch === 0 && verdict.dispatches === verdict.expectedDispatches,
          ),
          atMost("0 look-alikes or hidden commands dispatched", verdict.tamperedDispatched, 0),
        ],
        note: `${verdict.dispatches} dispatches; ${tampered} look-alike or hidden commands among the comments`,
      },
      {
        benchmark: BENCH,
        name: `${shape}: comments answered more than once`,
        unit: "",
        value: exact(verdict.repliedTwice),
        goals: [
          atMost("≤ 1 reply per comment", verdict.repliedTwice, 0),
          holds("no shell payload ran", !verdict.shellReached),
        ],
      },
    ];
  } finally {
    await app.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const commandFuzzBenchmark: Benchmark = {
  name: BENCH,
  description:
    "Hostile comments: 10,000 fuzzed /locus comments through the app (no 5xx, ≤ 1 reply, exact dispatches)",
  run,
};
