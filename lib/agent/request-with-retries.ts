/**
 * Sends one model turn, retrying transient failures (retry-policy.ts). Each retry is announced as
 * a retryable `error` event carrying the wait and any partial text of a cut stream; the turn is
 * then sent again unchanged, so its cached prefix still matches.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { AgentEventListener } from "./events.ts";
import { classifyFailure, MAX_RETRIES, retryDelaySeconds, type Failure } from "./retry-policy.ts";
import { TurnError } from "./stream-turn.ts";

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export type TurnOutcome =
  | { readonly ok: true; readonly message: Anthropic.Message }
  | { readonly ok: false; readonly failure: Failure };

export async function requestWithRetries(
  send: () => Promise<Anthropic.Message>,
  options: { readonly signal: AbortSignal; readonly sleep: Sleep; readonly onEvent: AgentEventListener },
): Promise<TurnOutcome> {
  for (let retry = 1; ; retry += 1) {
    try {
      return { ok: true, message: await send() };
    } catch (error) {
      const cause = error instanceof TurnError ? error.cause : error;
      const partialText =
        error instanceof TurnError && error.partialText !== "" ? error.partialText : undefined;
      const failure = options.signal.aborted
        ? ({ kind: "aborted", retryable: false, message: "aborted" } as const)
        : classifyFailure(cause);
      if (!failure.retryable) return { ok: false, failure };
      const seconds = retryDelaySeconds(retry, failure);
      if (seconds === undefined) {
        return {
          ok: false,
          failure: { ...failure, message: `${failure.message} (gave up after ${MAX_RETRIES} retries)` },
        };
      }
      options.onEvent({
        type: "error",
        message: failure.message,
        retryable: true,
        attempt: retry,
        retryInSeconds: seconds,
        ...(partialText === undefined ? {} : { partialText }),
      });
      try {
        await options.sleep(seconds * 1000, options.signal);
      } catch {
        return { ok: false, failure: { kind: "aborted", retryable: false, message: "aborted" } };
      }
    }
  }
}
