/**
 * Steady intake: the app server and the bare receiver loaded in pairs, back to back, the order
 * alternating from pair to pair. Each pair's ratio is taken under the same load of the machine,
 * and the figure is the median of those ratios: on a shared machine the load moves between one
 * receiver's window and the other's, and a ratio of two medians taken minutes apart measured that
 * as much as the receivers (0.70× and 0.96× in two runs of the same code).
 */
import { atLeast, atMost, sample } from "../lib/stats.ts";
import type { BenchContext, Figure } from "../lib/types.ts";
import type { Peer } from "./ipc.ts";
import { load, type LoadResult } from "./load.ts";
import type { Delivery } from "./payload.ts";

export const CONNECTIONS = 50;
const SECONDS = 3;
const BENCH = "webhook";

export interface SteadyTarget {
  readonly peer: Peer;
  readonly url: string;
}

type Cpu = { user: number; system: number };
type Measured = LoadResult & { cpuMs: number };

/** A load run with the receiver's CPU time (µs) spent meanwhile and until its work drained. */
export async function measured(target: SteadyTarget, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = await target.peer.ask<Cpu>("cpu");
  const result = await run();
  await target.peer.ask("drain");
  const after = await target.peer.ask<Cpu>("cpu");
  return { ...result, cpuMs: (after.user - before.user + after.system - before.system) / 1000 };
}

function median(values: readonly number[]): number {
  return sample(values).median;
}

function figure(
  name: string,
  unit: string,
  app: number[],
  bare: number[],
  goals: (median: number, ratio: number) => Figure["goals"],
  note?: string,
): Figure {
  const ratios = app.map((value, i) => value / (bare[i] ?? Number.NaN));
  const ratio = median(ratios);
  return {
    benchmark: BENCH,
    name,
    unit,
    value: sample(app),
    baseline: { name: "bare node:http", value: sample(bare) },
    ratio,
    goals: goals(median(app), ratio),
    note: `median of ${ratios.length} back-to-back pairs' ratios: ${ratios.map((r) => r.toFixed(2)).join(", ")}${note ? `; ${note}` : ""}`,
  };
}

export async function steadyFigures(
  ctx: BenchContext,
  targets: { app: SteadyTarget; bare: SteadyTarget },
  delivery: Delivery,
): Promise<Figure[]> {
  const { app, bare } = targets;
  const pairs = ctx.repeats(5);
  await load(app.url, delivery, { connections: CONNECTIONS, seconds: 1 });
  await load(bare.url, delivery, { connections: CONNECTIONS, seconds: 1 });
  const runs = { app: [] as Measured[], bare: [] as Measured[] };
  const shape = { connections: CONNECTIONS, seconds: SECONDS };
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? (["bare", "app"] as const) : (["app", "bare"] as const);
    for (const side of order)
      runs[side].push(await measured(targets[side], () => load(targets[side].url, delivery, shape)));
    const a = runs.app.at(-1)!.perSecond;
    const b = runs.bare.at(-1)!.perSecond;
    ctx.log(
      `steady ${i + 1}/${pairs} (${order.join(" then ")}): app ${Math.round(a)}/s, bare ${Math.round(b)}/s, ${(a / b).toFixed(2)}×`,
    );
  }
  const pick = (key: keyof LoadResult, side: "app" | "bare") => runs[side].map((r) => r[key]);
  return [
    figure(
      `deliveries/s, ${CONNECTIONS} connections, ${SECONDS} s a window`,
      "/s",
      pick("perSecond", "app"),
      pick("perSecond", "bare"),
      (m, r) => [atLeast("≥ 0.8× bare", r, 0.8), atLeast("≥ 1,500/s", m, 1500)],
    ),
    figure(`p99 latency, ${CONNECTIONS} connections`, "ms", pick("p99", "app"), pick("p99", "bare"), (m) => [
      atMost("p99 ≤ 50 ms", m, 50),
    ]),
    figure(
      "CPU per delivery (receiver process, incl. its background work)",
      "ms",
      runs.app.map((r) => r.cpuMs / r.ok),
      runs.bare.map((r) => r.cpuMs / r.ok),
      (m) => [atMost("≤ 0.5 ms", m, 0.5)],
    ),
    figure(
      `failed deliveries, ${CONNECTIONS} connections`,
      "",
      pick("failed", "app"),
      pick("failed", "bare"),
      (m) => [atMost("0 errors", m, 0)],
    ),
  ];
}
