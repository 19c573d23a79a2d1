/** Why an agent run did not deliver, in words for a comment. */
import type { RunResult } from "../agent/runner.ts";
import { formatUsd } from "../render/markdown.ts";
import type { DailyBudget } from "../cost/daily-budget.ts";

function describeStop(result: RunResult): string {
  const error = result.error ? `: ${result.error}` : "";
  switch (result.stop) {
    case "max_turns":
      return `it reached the turn limit (${result.turns} turns)`;
    case "time_limit":
      return "it reached its time limit";
    case "cost_limit":
      return `it reached its cost limit ($${result.costUsd.toFixed(2)})`;
    case "cost_unreported":
      return `it was stopped because its cost could not be counted${error}`;
    case "aborted":
      return "the run was cancelled";
    case "api_error":
      return `the model API failed${error}`;
    case "asked":
      return "it asked a question and waits for an answer";
    case "failed":
    case "finished":
    case "end_turn":
      return `the agent reported a failure${error}`;
  }
}

/**
 * As `describeStop`, saying so when the run stopped at what remained of the
 * daily cost cap rather than at its own limit (`perRun`). The run's own spend
 * is not yet recorded in `budget`.
 */
export function describeStopUnderCap(
  result: RunResult,
  perRun: number,
  budget: DailyBudget | undefined,
): string {
  const reason = describeStop(result);
  if (result.stop !== "cost_limit" || !budget || budget.remaining() >= perRun) return reason;
  return `${reason}, what remained of the daily cost cap of ${formatUsd(budget.capUsd)} (it resets at 00:00 UTC)`;
}
