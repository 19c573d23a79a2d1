/**
 * `npm run bench [-- name …]`: runs every benchmark, or the named ones, one after another (they
 * would disturb each other's timings in parallel), then writes bench/results/latest.{json,md}
 * and prints the table. Never part of `npm test`: nothing here asserts on time.
 */
import { load, describeMachine } from "./lib/machine.ts";
import { writeReport, type RunReport } from "./lib/report.ts";
import type { BenchContext, Benchmark, Figure, Skipped } from "./lib/types.ts";
import { benchmarks } from "./benchmarks.ts";

function context(name: string): BenchContext {
  const override = Number(process.env["BENCH_REPEATS"]);
  return {
    repeats: (fallback) => (Number.isInteger(override) && override > 0 ? override : fallback),
    log: (line) => console.log(`[${name}] ${line}`),
  };
}

function select(names: readonly string[]): Benchmark[] {
  if (names.length === 0) return [...benchmarks];
  const unknown = names.filter((n) => !benchmarks.some((b) => b.name === n));
  if (unknown.length > 0) {
    const known = benchmarks.map((b) => `  ${b.name.padEnd(14)} ${b.description}`).join("\n");
    throw new Error(`unknown benchmark ${unknown.join(", ")}; known:\n${known}`);
  }
  return benchmarks.filter((b) => names.includes(b.name));
}

async function main(): Promise<void> {
  const started = performance.now();
  const chosen = select(process.argv.slice(2));
  const results: (Figure | Skipped)[] = [];
  const loads: RunReport["load"] = {};
  for (const bench of chosen) {
    const before = load();
    const ctx = context(bench.name);
    ctx.log(`start (load ${before})`);
    try {
      results.push(...(await bench.run(ctx)));
    } catch (error) {
      // One broken benchmark must not cost the figures of the others.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`[${bench.name}] failed: ${message}`);
      results.push({ benchmark: bench.name, skipped: `failed: ${message.split("\n")[0] ?? ""}` });
    }
    loads[bench.name] = { before, after: load() };
  }
  const report: RunReport = {
    date: new Date().toISOString(),
    command: ["npm run bench", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(
      " ",
    ),
    machine: describeMachine(),
    load: loads,
    wallSeconds: (performance.now() - started) / 1000,
    results,
  };
  console.log(`\n${await writeReport(report)}`);
}

await main();
