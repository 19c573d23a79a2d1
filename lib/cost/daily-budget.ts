/**
 * The daily cost cap (config `agent.maxCostPerDayUsd`), counted from what
 * GitHub already holds: each status comment records what its issue's tasks
 * cost on one UTC day, and the task read lists the status comments of the
 * issues Locus touched since midnight UTC in the same request. Only comments
 * this token (or another Locus identity) wrote count, so nobody can block
 * Locus for a day by posting a fake status comment. Tasks started by this run
 * add to the tally as they finish.
 */
import type { SpendComment } from "../github/index.ts";
import { formatUsd } from "../render/markdown.ts";
import { isStatusComment, readStatusState, type StatusState } from "../status/status-comment.ts";
import { isLocus } from "../github/locus-identity.ts";

export interface DailyBudget {
  readonly capUsd: number;
  /** Spent today, by earlier runs and by the tasks of this run that finished. */
  spent(): number;
  /** What a task starting now may spend; 0 or less means it must not start. */
  remaining(): number;
  record(usd: number): void;
  /** Why a task is not started, with the cap and when it resets, for the failure comment. */
  refusal(): string;
}

/** A run may spend its own limit, or what remains of the day's cap when that is less. */
export function costLimit(perRun: number, budget: DailyBudget | undefined): number {
  return budget ? Math.min(perRun, budget.remaining()) : perRun;
}

/** `2026-11-24`: spend is kept per UTC day. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The start of the UTC day, as GitHub's `since` filter takes it. */
export function utcDayStart(at: Date): string {
  return `${utcDay(at)}T00:00:00Z`;
}

/** The state with `usd` more spent today, a new day's record replacing an older one. */
export function withDaySpend(state: StatusState, at: Date, usd: number): StatusState {
  const day = utcDay(at);
  const before = state.daySpend?.day === day ? state.daySpend.usd : 0;
  return { ...state, daySpend: { day, usd: before + usd } };
}

/** What Locus's own status comments record as spent on `day`. */
export function spentOn(
  day: string,
  comments: readonly SpendComment[],
  selfLogins: readonly string[],
): number {
  let total = 0;
  for (const comment of comments) {
    if (!isStatusComment(comment.body)) continue;
    if (!comment.viewerDidAuthor && !isLocus(selfLogins, comment.author)) continue;
    const spend = readStatusState(comment.body).daySpend;
    if (spend?.day === day) total += spend.usd;
  }
  return total;
}

export function createDailyBudget(input: {
  readonly capUsd: number;
  readonly spentBefore: number;
  readonly now: () => Date;
}): DailyBudget {
  let spentHere = 0;
  const day = utcDay(input.now());
  const spent = () => (utcDay(input.now()) === day ? input.spentBefore + spentHere : spentHere);
  return {
    capUsd: input.capUsd,
    spent,
    remaining: () => input.capUsd - spent(),
    record: (usd) => {
      spentHere += usd;
    },
    refusal: () => {
      const now = input.now();
      const reset = new Date(`${utcDay(now)}T00:00:00Z`).getTime() + 24 * 3600 * 1000;
      const minutes = Math.max(1, Math.ceil((reset - now.getTime()) / 60_000));
      const wait = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
      return `the daily cost cap of ${formatUsd(input.capUsd)} (config \`agent.maxCostPerDayUsd\`) is reached: ${formatUsd(spent())} spent today (UTC). It resets at 00:00 UTC, in ${wait}; nothing was started, so nothing is lost`;
    },
  };
}
