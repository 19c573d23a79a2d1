/**
 * When the Action asks the app for a token again after a failed attempt. A
 * network error, a 5xx and a 429 are worth another try: the app may be
 * restarting, GitHub may have had a blip, or many runs started at once. Any
 * other answer is the app's decision and is final. The wait doubles with each
 * attempt, with jitter so runs started together do not retry together; a
 * `Retry-After` the app sends is honoured (plus jitter) when it is not longer
 * than the longest wait this client accepts.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** The first wait; each later one doubles. */
  readonly baseDelayMs: number;
  /** No single wait is longer: a `Retry-After` beyond it ends the retries. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseDelayMs: 1_000, maxDelayMs: 120_000 };

/** Whether an answer with this status (or a network error: `undefined`) may succeed if asked again. */
export function isRetryable(status: number | undefined, code: string | undefined): boolean {
  if (status === undefined) return true;
  // "not-configured" is a 503 that no amount of waiting changes.
  if (code === "not-configured") return false;
  return status === 429 || status >= 500;
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date
 * (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after); undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1), or undefined
 * when no more attempts are allowed or the server asks for a longer wait than
 * the policy accepts. `random` is in [0, 1).
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfter: number | undefined,
  random: number,
): number | undefined {
  if (attempt >= policy.attempts) return undefined;
  const spread = policy.baseDelayMs * random;
  if (retryAfter !== undefined) {
    return retryAfter > policy.maxDelayMs ? undefined : retryAfter + spread;
  }
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": at least half the backoff, so a retry never comes at once.
  return backoff / 2 + (backoff / 2) * random;
}
