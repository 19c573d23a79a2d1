/**
 * Which API failures are transient and how long to wait before the next attempt. docs/contracts.md
 * "Retries": at most 5 retries (6 attempts) with 1-2-4-8-16 s backoff, the SDK's own retries off
 * so the two never stack. A `retry-after` longer than the backoff step is honoured (capped).
 */
import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";

export const MAX_RETRIES = 5;
const BACKOFF_SECONDS = [1, 2, 4, 8, 16] as const;
const MAX_RETRY_AFTER_SECONDS = 60;

export type FailureKind =
  "aborted" | "rate_limited" | "overloaded" | "server" | "network" | "stream_cut" | "fatal";

export interface Failure {
  readonly kind: FailureKind;
  readonly retryable: boolean;
  readonly message: string;
  readonly retryAfterSeconds?: number;
}

const RETRYABLE_STREAM_ERRORS = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "timeout_error",
]);

function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms / 1000;
  const seconds = Number(headers?.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

export function classifyFailure(error: unknown): Failure {
  if (error instanceof APIUserAbortError) return { kind: "aborted", retryable: false, message: "aborted" };
  if (error instanceof APIConnectionError) {
    return { kind: "network", retryable: true, message: `network error: ${error.message}` };
  }
  if (error instanceof APIError) {
    const status: number | undefined = error.status as number | undefined;
    const message = `${status ?? "stream"} ${error.type ?? "error"}: ${error.apiMessage ?? error.message}`;
    if (status === undefined) {
      // An SSE `error` event mid-stream (the API overloaded after it had started answering).
      const retryable = RETRYABLE_STREAM_ERRORS.has(error.type ?? "");
      return { kind: error.type === "overloaded_error" ? "overloaded" : "server", retryable, message };
    }
    const after = retryAfter(error.headers as Headers | undefined);
    const timing = after === undefined ? {} : { retryAfterSeconds: Math.min(after, MAX_RETRY_AFTER_SECONDS) };
    if (status === 429) return { kind: "rate_limited", retryable: true, message, ...timing };
    if (status === 529) return { kind: "overloaded", retryable: true, message, ...timing };
    if (status >= 500 || status === 408 || status === 409)
      return { kind: "server", retryable: true, message, ...timing };
    return { kind: "fatal", retryable: false, message };
  }
  if (error instanceof AnthropicError) {
    // The SDK wraps a body that stopped mid-stream ("terminated", "stream ended without producing a Message").
    return { kind: "stream_cut", retryable: true, message: `stream interrupted: ${error.message}` };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { kind: "fatal", retryable: false, message: text };
}

/** Seconds to wait before retry number `retry` (1-based), or undefined when retries are used up. */
export function retryDelaySeconds(retry: number, failure: Failure): number | undefined {
  const step = BACKOFF_SECONDS[retry - 1];
  if (step === undefined || retry > MAX_RETRIES) return undefined;
  return Math.max(step, failure.retryAfterSeconds ?? 0);
}
