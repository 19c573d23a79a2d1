/** Medians and spreads over repeated runs, and the goal checks every figure carries. */
import type { Goal, Sample } from "./types.ts";

export function sample(values: readonly number[]): Sample {
  if (values.length === 0) throw new Error("a sample needs at least one value");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs: sorted.length };
}

/** A single, exact value (counts): no spread. */
export function exact(value: number): Sample {
  return { median: value, min: value, max: value, runs: 1 };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Milliseconds `fn` takes, `runs` times, after `warmup` untimed runs (warm page cache, JIT). */
export async function timeRuns(runs: number, fn: () => Promise<unknown>, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/**
 * Times two alternatives interleaved (a, b, a, b, …) so that load from other jobs on the machine
 * falls on both alike; a ratio of medians measured this way is what the goals check.
 */
export async function timePair(
  runs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  await a();
  await b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    ta.push(...(await timeRuns(1, a, 0)));
    tb.push(...(await timeRuns(1, b, 0)));
  }
  return [ta, tb];
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1);
}

/** `actual` must be at most `limit`. */
export function atMost(text: string, actual: number, limit: number): Goal {
  const met = actual <= limit;
  return met
    ? { text, met }
    : { text, met, margin: `${fmt(actual)} vs ${fmt(limit)}: ${fmt(actual / limit)}× over` };
}

/** `actual` must be at least `limit`. */
export function atLeast(text: string, actual: number, limit: number): Goal {
  const met = actual >= limit;
  return met
    ? { text, met }
    : { text, met, margin: `${fmt(actual)} vs ${fmt(limit)}: ${fmt((actual / limit) * 100)} % of it` };
}

export function holds(text: string, met: boolean, margin?: string): Goal {
  return met || margin === undefined ? { text, met } : { text, met, margin };
}
