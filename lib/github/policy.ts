import Bottleneck from "bottleneck";
import type { RetryOptions } from "@octokit/plugin-retry";
import type { ThrottlingOptions } from "@octokit/plugin-throttling";
import { sleep } from "./rate-limit.ts";
import type { OctokitLike } from "./instrument.ts";
import type { Log } from "./types.ts";

export type OctokitPolicyOptions = {
  log: Log;
  /** Retries of one request: after a 5xx or network error, and after a rate-limit answer. Default 3. */
  maxRetries?: number;
  /** Unit of plugin-retry's (n+1)² back-off after a 5xx, in ms. Default 1000; 0 in tests. */
  retryUnitMs?: number;
  /** How rate-limit waits are spent; injectable so tests do not sleep. */
  wait?: (ms: number) => Promise<void>;
  /**
   * Key of the plugin's write queue (one write at a time, a second apart, as
   * GitHub asks). Give each installation or token its own, or they all queue
   * behind each other in one process.
   */
  throttleId?: string;
  /**
   * Spacing of writes for this octokit alone instead of the process-wide
   * queues keyed by throttleId; for tests and local simulators (0 = none).
   */
  minWriteIntervalMs?: number;
};

/** How often and after what waits a request that failed with a 5xx or a network error is sent again. */
export type RetrySchedule = { retries: number; unitMs: number };

// The schedule rides along in every request's `request` options, where the
// gateway reads it for the creates it re-sends itself (create-once.ts):
// plugin-retry keeps its own copy private.
const RETRY_SCHEDULE = "locusRetrySchedule";

export type OctokitPolicy = {
  throttle: ThrottlingOptions;
  retry: RetryOptions;
  /** Request defaults: merge into any `request` options of your own. */
  request: { [RETRY_SCHEDULE]: RetrySchedule };
};

/** plugin-retry's wait before retry number `retry + 1`: (n+1)² units. */
export function retryDelayMs(schedule: RetrySchedule, retry: number): number {
  return (retry + 1) ** 2 * schedule.unitMs;
}

/** The schedule createOctokitPolicy gave this octokit; none (no retries) for an octokit built without it. */
export function retryScheduleOf(octokit: OctokitLike): RetrySchedule {
  const schedule = octokit.request.endpoint.DEFAULTS.request?.[RETRY_SCHEDULE] as RetrySchedule | undefined;
  return schedule ?? { retries: 0, unitMs: 0 };
}

// plugin-retry would otherwise also retry 429s and the rate-limit answers
// plugin-throttling owns, and client errors that will fail the same way again.
const DO_NOT_RETRY = [400, 401, 403, 404, 406, 409, 410, 422, 429, 451];

function groups(minTime: number) {
  const group = () => new Bottleneck.Group({ maxConcurrent: 1, minTime });
  return { write: group(), notifications: group(), search: group() };
}

/**
 * The one retry policy of every Locus octokit, as options for
 * plugin-throttling and plugin-retry, and the request defaults that carry
 * its retry schedule to the gateway. createActionOctokit applies it; the app
 * passes it to Probot (app/octokit.ts), whose own default retries rate-limit
 * answers without bound.
 *
 * - 5xx and network errors: plugin-retry, at most maxRetries times, after
 *   1, 4, 9… × retryUnitMs. Except a request that creates something, which the
 *   gateway re-sends itself on the same schedule, and only after looking
 *   whether GitHub had created it after all (create-once.ts).
 * - Secondary rate limit (403/429 whose message says so): plugin-throttling,
 *   at most maxRetries times, after the retry-after header (60 s without one),
 *   doubled on each further attempt.
 * - Primary limit exhausted (x-ratelimit-remaining: 0): plugin-throttling,
 *   at most maxRetries times, after the reset.
 * The handlers do the waiting through `wait` and the plugin adds none
 * (retryAfterBaseValue 0), so a test can observe every delay.
 */
export function createOctokitPolicy(options: OctokitPolicyOptions): OctokitPolicy {
  const { log } = options;
  const maxRetries = options.maxRetries ?? 3;
  const unitMs = options.retryUnitMs ?? 1000;
  const wait = options.wait ?? sleep;

  function handler(kind: string, backoff: boolean) {
    return async (
      retryAfter: number,
      request: { method: string; url: string },
      _octokit: unknown,
      retryCount: number,
    ): Promise<boolean> => {
      const route = `${request.method} ${request.url}`;
      if (retryCount >= maxRetries) {
        log.error(`GitHub ${kind} on ${route}: giving up after ${retryCount} retries.`);
        return false;
      }
      const ms = retryAfter * 1000 * (backoff ? 2 ** retryCount : 1);
      log.warn(
        `GitHub ${kind} on ${route}: retry ${retryCount + 1}/${maxRetries} in ${Math.ceil(ms / 1000)} s.`,
      );
      await wait(ms);
      return true;
    };
  }

  // The plugin types its handlers as returning void but awaits what they
  // return (true means retry), so the async handlers are typed loosely here.
  const throttle = {
    ...(options.throttleId === undefined ? {} : { id: options.throttleId }),
    ...(options.minWriteIntervalMs === undefined ? {} : groups(options.minWriteIntervalMs)),
    retryAfterBaseValue: 0,
    onSecondaryRateLimit: handler("secondary rate limit", true),
    onRateLimit: handler("rate limit exhausted", false),
  };
  return {
    throttle,
    retry: { retries: maxRetries, retryAfterBaseValue: unitMs, doNotRetry: DO_NOT_RETRY },
    request: { [RETRY_SCHEDULE]: { retries: maxRetries, unitMs } },
  };
}
