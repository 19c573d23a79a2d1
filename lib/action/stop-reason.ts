/** Why an agent run did not deliver, in words for a comment. */
import type { RunResult } from "../agent/runner.ts";

export function describeStop(result: RunResult): string {
  const error = result.error ? `: ${result.error}` : "";
  switch (result.stop) {
    case "max_turns":
      return `it reached the turn limit (${result.turns} turns)`;
    case "time_limit":
      return "it reached its time limit";
    case "cost_limit":
      return `it reached its cost limit ($${result.costUsd.toFixed(2)})`;
    case "aborted":
      return "the run was cancelled";
    case "api_error":
      return `the model API failed${error}`;
    case "failed":
    case "finished":
    case "end_turn":
      return `the agent reported a failure${error}`;
  }
}
