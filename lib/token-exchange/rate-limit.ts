/**
 * A sliding window: at most `limit` events per key in any `windowMs`. In
 * memory per app process, with the clock passed in. exchange-budget.ts puts
 * two of them together (per run, per repository).
 */
export interface ExchangeRateLimiter {
  /** Counts one exchange for `key`; false when it is over the limit (nothing counted). */
  take(key: string): boolean;
  /** How long until `key` may take one more: 0 when it may now. */
  waitMs(key: string): number;
}

export function createExchangeRateLimiter(options: {
  limit: number;
  windowMs: number;
  now: () => number;
}): ExchangeRateLimiter {
  const seen = new Map<string, number[]>();
  function recent(key: string, now: number): number[] {
    const kept = (seen.get(key) ?? []).filter((at) => now - at < options.windowMs);
    if (kept.length === 0) seen.delete(key);
    else seen.set(key, kept);
    return kept;
  }
  function waitMs(key: string): number {
    const now = options.now();
    const kept = recent(key, now);
    if (kept.length < options.limit) return 0;
    // The window frees a slot when its oldest event counted against the limit leaves it.
    const oldest = kept[kept.length - options.limit] ?? now;
    return Math.max(1, oldest + options.windowMs - now);
  }
  return {
    waitMs,
    take(key) {
      if (waitMs(key) > 0) return false;
      seen.set(key, [...recent(key, options.now()), options.now()]);
      return true;
    },
  };
}
