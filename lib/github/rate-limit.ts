import type { Log, RateLimitState } from "./types.ts";

export type RateLimitOptions = {
  /** Warn (once per window and resource) when fewer requests than this remain. Default 100. */
  warnBelow?: number;
  /** Pause until the window resets when fewer requests than this remain. Default 20. */
  waitBelow?: number;
  wait?: (ms: number) => Promise<void>;
  /** Epoch milliseconds. */
  now?: () => number;
};

export type RateLimitTracker = {
  /** Resolves when a request against `resource` may be sent. */
  beforeRequest(resource: string): Promise<void>;
  observe(headers: Record<string, unknown> | undefined, fallbackResource: string): void;
  /**
   * GitHub refused a request for the limit (a GraphQL query costing more points
   * than are left is refused while points remain): the window counts as spent,
   * so the next request waits for its reset. False when no reset is known.
   */
  exhausted(resource: string): boolean;
  snapshot(): RateLimitState[];
};

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A second past the reset so the first request lands in the new window
// (GitHub's reset header has a one-second resolution).
const RESET_MARGIN_MS = 1000;

/**
 * Reads x-ratelimit-* on every response and keeps well clear of the primary
 * limit: warn under `warnBelow`, pause under `waitBelow` until the reset.
 * Exhaustion that still happens (403/429) is the throttling plugin's to retry.
 */
export function createRateLimitTracker(log: Log, options: RateLimitOptions = {}): RateLimitTracker {
  const warnBelow = options.warnBelow ?? 100;
  const waitBelow = options.waitBelow ?? 20;
  const wait = options.wait ?? sleep;
  const now = options.now ?? Date.now;
  const states = new Map<string, RateLimitState>();
  const warned = new Map<string, number>();
  const pauses = new Map<string, Promise<void>>();

  async function pause(resource: string, state: RateLimitState, ms: number): Promise<void> {
    const at = new Date(state.resetAt).toISOString();
    log.warn(
      `GitHub API rate limit nearly exhausted (${state.remaining}/${state.limit} ${resource} requests left): pausing ${Math.ceil(ms / 1000)} s until it resets at ${at}; work resumes by itself.`,
    );
    await wait(ms);
    // The old numbers describe the window that has just ended.
    if (states.get(resource) === state) states.delete(resource);
  }

  return {
    async beforeRequest(resource) {
      const running = pauses.get(resource);
      if (running) return running;
      const state = states.get(resource);
      if (!state || state.remaining >= waitBelow) return;
      const ms = state.resetAt - now() + RESET_MARGIN_MS;
      if (ms <= 0) return;
      const paused = pause(resource, state, ms).finally(() => pauses.delete(resource));
      pauses.set(resource, paused);
      return paused;
    },
    observe(headers, fallbackResource) {
      const remaining = Number(headers?.["x-ratelimit-remaining"]);
      const reset = Number(headers?.["x-ratelimit-reset"]);
      if (
        !Number.isFinite(remaining) ||
        !Number.isFinite(reset) ||
        headers?.["x-ratelimit-remaining"] === undefined
      )
        return;
      const resourceHeader = headers?.["x-ratelimit-resource"];
      const resource = typeof resourceHeader === "string" ? resourceHeader : fallbackResource;
      const state: RateLimitState = {
        resource,
        limit: Number(headers?.["x-ratelimit-limit"]) || 0,
        remaining,
        used: Number(headers?.["x-ratelimit-used"]) || 0,
        resetAt: reset * 1000,
      };
      states.set(resource, state);
      if (remaining < warnBelow && warned.get(resource) !== state.resetAt) {
        warned.set(resource, state.resetAt);
        const minutes = Math.max(0, Math.ceil((state.resetAt - now()) / 60_000));
        log.warn(
          `GitHub API rate limit low: ${remaining}/${state.limit} ${resource} requests left, resets at ${new Date(state.resetAt).toISOString()} (in ${minutes} min).`,
        );
      }
    },
    exhausted(resource) {
      const state = states.get(resource);
      if (!state) return false;
      states.set(resource, { ...state, remaining: 0 });
      return true;
    },
    snapshot() {
      return [...states.values()].map((s) => ({ ...s }));
    },
  };
}
