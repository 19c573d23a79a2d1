/**
 * Creates that survive a retried POST. GitHub can carry out a request and
 * still answer 502, time out or drop the connection (docs/reliability.md,
 * write retries); re-sending it blindly, as plugin-retry does, posts a second comment,
 * opens a second PR or starts a second run. So a create goes out with the
 * retry plugin off, and after a 5xx or a network error the gateway first asks
 * GitHub whether the thing is there ("did it land?"): if it is, that is the
 * answer; only if it is not is the request sent once more. The attempts and
 * the waits between them are createOctokitPolicy's, so a create never gets
 * more tries or shorter waits than any other request. Every look and every
 * send is a counted gateway call of its own.
 */
import { statusOf } from "./errors.ts";
import { retryDelayMs, type RetrySchedule } from "./policy.ts";
import type { Create, SendOnce } from "./transport-types.ts";
import type { Log } from "./types.ts";

// GitHub's timestamps are whole seconds, and its clock and ours differ a little.
const CLOCK_SLACK_MS = 60_000;

/** A 5xx, or no answer at all (status 0): GitHub may have done it anyway. A 4xx means it did not. */
function mayHaveLanded(error: unknown): boolean {
  const status = statusOf(error);
  return status === 0 || (status !== undefined && status >= 500);
}

export async function createOnce<T>(
  deps: { once: SendOnce; schedule: RetrySchedule; log: Log; wait: (ms: number) => Promise<void> },
  create: Create<T>,
): Promise<T> {
  const { schedule, log } = deps;
  const since = new Date(Date.now() - CLOCK_SLACK_MS);
  for (let retry = 0; ; retry += 1) {
    try {
      return await create.send(deps.once);
    } catch (error) {
      if (!mayHaveLanded(error) || retry >= schedule.retries) throw error;
      await deps.wait(retryDelayMs(schedule, retry));
      const found = await create.landed(since);
      if (found !== null) {
        log.info(`GitHub failed on creating the ${create.what} but had created it; not sending it again.`);
        return found;
      }
      log.warn(
        `GitHub failed on creating the ${create.what} and does not have it: retry ${retry + 1}/${schedule.retries}.`,
      );
    }
  }
}
