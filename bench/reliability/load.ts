/**
 * The load check (docs/reliability.md): 1,000 signed `issues.labeled` deliveries (GitHub's own payloads, from the
 * simulator) sent in 10 s, evenly paced, across 50 installations and 200 repositories, to the
 * real app server. The simulator and the app each run in their own process. Pass: no delivery
 * answered other than 2xx, every issue dispatched exactly once once the acknowledged work has
 * drained, and no installation over GitHub's secondary limits for content writes (80 a minute,
 * 500 an hour).
 */
import { join } from "node:path";
import { atMost, exact, holds, percentile, sample } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure } from "../lib/types.ts";
import { forkPeer } from "../webhook/ipc.ts";
import type { TargetReady } from "../webhook/shared.ts";
import {
  INSTALLATIONS,
  ISSUES_PER_REPO,
  REPOS_PER_INSTALLATION,
  SEND_SECONDS,
  type LoadDelivery,
  type LoadSimReady,
  type LoadSimReport,
  type Write,
} from "./load-shared.ts";

const BENCH = "w9-load";
const PER_MINUTE_LIMIT = 80;
const PER_HOUR_LIMIT = 500;

interface Ack {
  readonly status: number;
  readonly ms: number;
}

async function send(url: string, delivery: LoadDelivery): Promise<Ack> {
  const started = performance.now();
  try {
    const response = await fetch(url, { method: "POST", headers: delivery.headers, body: delivery.body });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** Sends every delivery at its slot of an even schedule over `seconds`. */
async function paced(url: string, deliveries: readonly LoadDelivery[], seconds: number): Promise<Ack[]> {
  const started = performance.now();
  const gapMs = (seconds * 1000) / deliveries.length;
  return Promise.all(
    deliveries.map(async (delivery, index) => {
      const wait = started + index * gapMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return send(url, delivery);
    }),
  );
}

/** The most writes any one account made within a sliding 60 s window, and its total. */
function busiestAccount(writes: readonly Write[]): { perMinute: number; total: number; owner: string } {
  const byOwner = Map.groupBy(writes, (write) => write.owner);
  let busiest = { perMinute: 0, total: 0, owner: "" };
  for (const [owner, own] of byOwner) {
    const times = own.map((write) => write.at).sort((a, b) => a - b);
    let from = 0;
    let perMinute = 0;
    times.forEach((at, index) => {
      while ((times[from] ?? at) <= at - 60_000) from += 1;
      perMinute = Math.max(perMinute, index - from + 1);
    });
    if (perMinute > busiest.perMinute || (perMinute === busiest.perMinute && times.length > busiest.total)) {
      busiest = { perMinute, total: times.length, owner };
    }
  }
  return busiest;
}

async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log(`seeding ${INSTALLATIONS} installations × ${REPOS_PER_INSTALLATION} repositories…`);
  const { peer: sim, ready: github } = await forkPeer<LoadSimReady>(
    join(import.meta.dirname, "load-sim-process.ts"),
    [],
  );
  const { deliveries, ...simReady } = github;
  const { peer: app, ready: target } = await forkPeer<TargetReady>(
    join(import.meta.dirname, "../webhook/target.ts"),
    ["app", JSON.stringify(simReady)],
  );
  try {
    const expected = INSTALLATIONS * REPOS_PER_INSTALLATION * ISSUES_PER_REPO;
    if (deliveries.length !== expected)
      throw new Error(`seeded ${deliveries.length} deliveries, not ${expected}`);
    ctx.log(`sending ${deliveries.length} deliveries over ${SEND_SECONDS} s`);
    const started = performance.now();
    const acks = await paced(target.url, deliveries, SEND_SECONDS);
    const sentMs = performance.now() - started;
    await app.ask("drain");
    const drainedMs = performance.now() - started;
    const report = await sim.ask<LoadSimReport>("report");

    const failed = acks.filter((ack) => ack.status < 200 || ack.status >= 300).length;
    const counts = Object.values(report.dispatches);
    const once = counts.filter((count) => count === 1).length;
    const twice = counts.filter((count) => count > 1).length;
    const busiest = busiestAccount(report.writes);
    ctx.log(
      `sent in ${Math.round(sentMs)} ms, drained in ${Math.round(drainedMs / 1000)} s: ${once} dispatched once, ${twice} more than once, ${failed} not 2xx; busiest ${busiest.owner}: ${busiest.perMinute}/min, ${busiest.total} in all`,
    );
    const shape = `${deliveries.length.toLocaleString("en-US")} deliveries in ${SEND_SECONDS} s, ${INSTALLATIONS} installations`;
    return [
      {
        benchmark: BENCH,
        name: `${shape}: answered other than 2xx`,
        unit: "",
        value: exact(failed),
        goals: [atMost("0 (no 5xx, none dropped)", failed, 0)],
      },
      {
        benchmark: BENCH,
        name: `${shape}: acknowledgement latency p99`,
        unit: "ms",
        value: sample([
          percentile(
            acks.map((ack) => ack.ms),
            99,
          ),
        ]),
        goals: [
          atMost(
            "p99 < 1 s",
            percentile(
              acks.map((ack) => ack.ms),
              99,
            ),
            1000,
          ),
        ],
        note: `max ${Math.round(Math.max(...acks.map((ack) => ack.ms)))} ms`,
      },
      {
        benchmark: BENCH,
        name: `${shape}: issues dispatched exactly once`,
        unit: "",
        value: exact(once),
        baseline: { name: "issues labelled", value: exact(expected) },
        ratio: once / expected,
        goals: [holds("every delivery handled once", once === expected && counts.length === expected)],
        note: `all work drained ${Math.round(drainedMs / 1000)} s after the first delivery; GitHub refused ${JSON.stringify(report.refused)}`,
      },
      {
        benchmark: BENCH,
        name: `${shape}: writes by the busiest installation in any 60 s`,
        unit: "",
        value: exact(busiest.perMinute),
        goals: [
          atMost(`≤ ${PER_MINUTE_LIMIT}/min (GitHub's secondary limit)`, busiest.perMinute, PER_MINUTE_LIMIT),
          atMost(`≤ ${PER_HOUR_LIMIT}/h`, busiest.total, PER_HOUR_LIMIT),
        ],
        note: `${busiest.owner}: ${busiest.total} writes in all; every write counted (labels, comments, dispatches), a superset of GitHub's content-creating requests`,
      },
    ];
  } finally {
    await Promise.all([app.stop(), sim.stop()]);
  }
}

export const loadBenchmark: Benchmark = {
  name: BENCH,
  description:
    "Load: 1,000 signed deliveries in 10 s across 50 installations (no 5xx, each once, within limits)",
  run,
};
