/** Every benchmark, in the order `npm run bench` runs them. */
import { gitStartupBenchmark } from "./git-startup/index.ts";
import { githubCallsBenchmark } from "./github-calls/index.ts";
import type { Benchmark } from "./lib/types.ts";
import { modelCostBenchmark } from "./model-cost/index.ts";
import { repoContextBenchmark } from "./repo-context/index.ts";
import { sandboxBenchmark } from "./sandbox/index.ts";
import { sanitizeBenchmark } from "./sanitize/index.ts";
import { commandFuzzBenchmark } from "./reliability/command-fuzz.ts";
import { loadBenchmark } from "./reliability/load.ts";
import { webhookBenchmark, webhookSteadyBenchmark } from "./webhook/index.ts";

export const benchmarks: readonly Benchmark[] = [
  webhookBenchmark,
  githubCallsBenchmark,
  modelCostBenchmark,
  repoContextBenchmark,
  gitStartupBenchmark,
  loadBenchmark,
  commandFuzzBenchmark,
  sandboxBenchmark,
  sanitizeBenchmark,
  webhookSteadyBenchmark,
];
