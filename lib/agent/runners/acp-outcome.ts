/**
 * How an ACP run ended, from what the runner saw: a limit or abort Locus
 * called, the turn's stop reason, or the process's exit (with the protocol
 * error that came with it). Pure, apart from the runner so each way a run can
 * end reads in one place.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { maxTurnsMessage } from "../limit-messages.ts";
import type { StopReason } from "../runner.ts";
import type { JsonLinesOutcome } from "./json-lines-process.ts";
import { exitError } from "./exit-error.ts";

export interface AcpEnd {
  readonly success: boolean;
  readonly stop: StopReason;
  readonly error: string | undefined;
  readonly summary: string;
}

function endOf(stopReason: acp.StopReason, maxTurns: number): { stop: StopReason; error?: string } {
  switch (stopReason) {
    case "end_turn":
      return { stop: "finished" };
    case "max_turn_requests":
      return { stop: "max_turns", error: maxTurnsMessage(maxTurns) };
    case "max_tokens":
      return { stop: "failed", error: "the agent ran out of output tokens before finishing" };
    case "refusal":
      return { stop: "failed", error: "the agent refused to continue" };
    case "cancelled":
      return { stop: "failed", error: "the agent cancelled its turn" };
  }
}

export function acpOutcome(seen: {
  /** The limit or abort Locus stopped the agent for, if any (it wins over what the agent said). */
  stopped: { reason: StopReason; message: string } | undefined;
  response: acp.PromptResponse | undefined;
  outcome: JsonLinesOutcome | Error;
  /** The error the protocol exchange ended with, if it did not end with a response. */
  failure: string | undefined;
  maxTurns: number;
  summary: () => string;
}): AcpEnd {
  const { stopped, response, outcome, failure } = seen;
  if (stopped !== undefined)
    return { success: false, stop: stopped.reason, error: stopped.message, summary: "" };
  if (response !== undefined) {
    const end = endOf(response.stopReason, seen.maxTurns);
    return { success: end.error === undefined, stop: end.stop, error: end.error, summary: seen.summary() };
  }
  const exit = outcome instanceof Error ? outcome.message : exitError("the agent", outcome);
  const error =
    outcome instanceof Error || outcome.exitCode !== null || outcome.signal !== null
      ? `${exit}${failure ? ` (${failure})` : ""}`
      : (failure ?? exit);
  return { success: false, stop: "failed", error, summary: "" };
}
