/** The errors a task stopped at a limit reports, worded the same whichever provider ran it. */

export function maxTurnsMessage(maxTurns: number): string {
  return `stopped after ${maxTurns} turns (max turns) before finishing`;
}

export function timeLimitMessage(limitMs: number): string {
  const amount =
    limitMs >= 60_000 && limitMs % 60_000 === 0
      ? `${limitMs / 60_000} min`
      : `${Math.max(1, Math.round(limitMs / 1000))} s`;
  return `time limit of ${amount} reached`;
}

export function costLimitMessage(spentUsd: number, limitUsd: number): string {
  return `cost limit reached: $${spentUsd.toFixed(4)} spent, limit $${limitUsd.toFixed(2)}`;
}
