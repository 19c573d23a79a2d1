/**
 * At most `limit` exchanges per repository in any `windowMs`: a run makes a
 * handful (one per phase, one per task's publish, a refresh an hour), so a
 * flood means something is wrong. In memory per app process, with the clock
 * passed in.
 */
export interface ExchangeRateLimiter {
  /** Counts one exchange for `key`; false when it is over the limit (nothing counted). */
  take(key: string): boolean;
}

export function createExchangeRateLimiter(options: {
  limit: number;
  windowMs: number;
  now: () => number;
}): ExchangeRateLimiter {
  const seen = new Map<string, number[]>();
  return {
    take(key) {
      const now = options.now();
      const recent = (seen.get(key) ?? []).filter((at) => now - at < options.windowMs);
      if (recent.length >= options.limit) {
        seen.set(key, recent);
        return false;
      }
      recent.push(now);
      seen.set(key, recent);
      return true;
    },
  };
}
