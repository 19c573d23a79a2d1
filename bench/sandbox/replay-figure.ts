/**
 * The replay task's figure from its timings: p50 and p95 wall time with the sandbox on and with
 * `sandbox.mode: off`, measured in the same run, and the ratio of the medians against the goal
 * (≤ 1.1× the unsandboxed time). The fake model answers at once, so the figure also says how long
 * a real model's turn must take for the goal to hold: the sandbox's cost is fixed per command, the
 * model's time falls on both sides alike. Pure, so the arithmetic is tested apart from any timing.
 */
import { atMost, percentile, sample } from "../lib/stats.ts";
import type { Figure } from "../lib/types.ts";

export const REPLAY_GOAL = 1.1;

/**
 * Milliseconds of model time per turn, added to both sides, at which sandboxed ÷ unsandboxed
 * falls to the goal: (on + T·m) ÷ (off + T·m) ≤ goal ⇔ m ≥ ((on − off) ÷ (goal − 1) − off) ÷ T.
 */
export function modelTimeForGoal(onMs: number, offMs: number, turns: number, goal = REPLAY_GOAL): number {
  return Math.max(0, ((onMs - offMs) / (goal - 1) - offMs) / turns);
}

export function replayFigure(
  benchmark: string,
  turns: number,
  sandboxed: readonly number[],
  off: readonly number[],
): Figure {
  const on = sample(sandboxed);
  const base = sample(off);
  const ratio = on.median / base.median;
  return {
    benchmark,
    name: `${turns}-turn replay task with the sandbox on (p95 ${percentile(sandboxed, 95).toFixed(0)} ms vs ${percentile(off, 95).toFixed(0)} ms off)`,
    unit: "ms",
    value: on,
    baseline: { name: "sandbox.mode: off", value: base },
    ratio,
    goals: [atMost(`≤ ${REPLAY_GOAL}× unsandboxed at p50`, ratio, REPLAY_GOAL)],
    note: `added at p50: ${(on.median - base.median).toFixed(0)} ms over ${turns} turns; with an instant model, so the goal holds once the model takes ≥ ${modelTimeForGoal(on.median, base.median, turns).toFixed(0)} ms a turn`,
  };
}
