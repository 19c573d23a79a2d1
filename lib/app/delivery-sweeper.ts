/**
 * GitHub's documented remedy for lost webhooks: read the app's delivery log
 * and ask for redelivery of what the app never handled (lib/app/redelivery-selection.ts
 * decides what). Runs when the app starts and on the reconciler's timer. It is
 * bounded — how far back, how many pages, how many redeliveries, how often —
 * and never throws: a failed sweep is logged, and the next one covers its span.
 */
import type { Log } from "../github/index.ts";
import { selectRedeliveries, type HookDelivery, type Redelivery } from "./redelivery-selection.ts";

/** The app's delivery log on GitHub, read with the app's JWT. */
export interface DeliveryLog {
  /** Pages of attempts, newest first; the sweeper stops reading when it has gone back far enough. */
  pages(): AsyncIterable<readonly HookDelivery[]>;
  redeliver(deliveryId: number): Promise<void>;
}

export interface SweepLimits {
  /** How far back the first sweep after start looks for failed deliveries. */
  readonly lookBackMs: number;
  /** Acknowledged deliveries this long before start are sent again; a crash may have eaten their work. */
  readonly startupWindowMs: number;
  /** Later sweeps look back to the previous sweep less this, for deliveries logged late (a slow answer). */
  readonly overlapMs: number;
  readonly maxPages: number;
  readonly maxRedeliveries: number;
  /** No sweep starts sooner than this after the previous one. */
  readonly minIntervalMs: number;
}

const MINUTE = 60_000;
/** GitHub keeps deliveries for 3 days; older ones can be neither listed nor redelivered. */
const DELIVERY_RETENTION_MS = 3 * 24 * 60 * MINUTE;

const DEFAULT_SWEEP_LIMITS: SweepLimits = {
  // A restarted app cannot know how long it was down, so its first sweep looks as far back as GitHub keeps.
  lookBackMs: DELIVERY_RETENTION_MS,
  // A supervisor restarts a crashed app within seconds to a few minutes, and the work queue holds
  // seconds of work; a longer span only re-sends events whose work is done (each costs a few reads).
  startupWindowMs: 10 * MINUTE,
  // GitHub logs a delivery when its attempt ends, up to its 10 s deadline after it began.
  overlapMs: 5 * MINUTE,
  // 30 pages of 100 are 3,000 deliveries: days of traffic for a busy installation, for 30 requests.
  maxPages: 30,
  // At the write pace of one a second this keeps a sweep under 4 minutes; the rest go next sweep.
  maxRedeliveries: 200,
  // The reconciler's timer (10 minutes by default) sweeps; this stops a start and a tick from both reading the log.
  minIntervalMs: 5 * MINUTE,
};

export type SweepReport =
  | {
      readonly outcome: "swept";
      readonly read: number;
      readonly redelivered: readonly Redelivery[];
      /** Pages or redeliveries hit their limit: older deliveries unread, or redeliveries left for next time. */
      readonly truncated: boolean;
    }
  | { readonly outcome: "skipped"; readonly reason: string }
  | { readonly outcome: "failed"; readonly message: string };

export interface DeliverySweeper {
  sweep(): Promise<SweepReport>;
  /**
   * Whether this sweeper asked GitHub to send the event with this GUID again,
   * even if the request failed (GitHub may have carried it out): such an event
   * may have been handled before a restart, so a command that only replies
   * looks for its reply first.
   */
  redeliveryRequested(guid: string): boolean;
}

export interface DeliverySweeperOptions {
  readonly log: DeliveryLog;
  readonly logger: Log;
  readonly now: () => Date;
  readonly actsOn: (event: string, action: string | null) => boolean;
  readonly limits?: Partial<SweepLimits>;
}

export function createDeliverySweeper(options: DeliverySweeperOptions): DeliverySweeper {
  const limits: SweepLimits = { ...DEFAULT_SWEEP_LIMITS, ...options.limits };
  const startedAt = options.now().getTime();
  // Everything logged since this instant has been looked at by a complete sweep.
  let horizon = startedAt - limits.lookBackMs;
  let startupPending = true;
  let lastSweepAt: number | undefined;
  let running = false;
  /** GUIDs GitHub accepted a redelivery request for: never asked for again. */
  const requested = new Map<string, number>();
  /** GUIDs a request was sent for, recorded before it: the event may arrive before GitHub's answer. */
  const asked = new Map<string, number>();

  async function read(since: number): Promise<{ deliveries: HookDelivery[]; truncated: boolean }> {
    const deliveries: HookDelivery[] = [];
    let pages = 0;
    for await (const page of options.log.pages()) {
      deliveries.push(...page);
      pages += 1;
      const oldest = page.at(-1);
      if (!oldest || Date.parse(oldest.deliveredAt) < since) return { deliveries, truncated: false };
      if (pages >= limits.maxPages) return { deliveries, truncated: true };
    }
    return { deliveries, truncated: false };
  }

  async function sweepOnce(now: number): Promise<SweepReport> {
    for (const record of [requested, asked]) {
      for (const [guid, at] of record) if (at < now - DELIVERY_RETENTION_MS) record.delete(guid);
    }
    let since = Math.max(horizon, now - DELIVERY_RETENTION_MS);
    if (startupPending) since = Math.min(since, startedAt - limits.startupWindowMs);
    const { deliveries, truncated: pagesCut } = await read(since);
    if (pagesCut) {
      options.logger.warn(
        `delivery sweep: read ${limits.maxPages} pages (${deliveries.length} deliveries) and stopped; ` +
          `failed deliveries before ${deliveries.at(-1)?.deliveredAt ?? "then"} were not checked`,
      );
    }
    const selected = selectRedeliveries(deliveries, {
      failedSince: new Date(since),
      acknowledgedBetween: startupPending
        ? { from: new Date(startedAt - limits.startupWindowMs), to: new Date(startedAt) }
        : undefined,
      actsOn: options.actsOn,
      requested: new Set(requested.keys()),
    });
    const batch = selected.slice(0, limits.maxRedeliveries);
    for (const redelivery of batch) {
      asked.set(redelivery.guid, now);
      await options.log.redeliver(redelivery.deliveryId);
      requested.set(redelivery.guid, now);
    }
    // Only a sweep that redelivered all it found moves on; otherwise the next one looks at the same span.
    const redeliveriesCut = batch.length < selected.length;
    if (!redeliveriesCut) {
      horizon = now - limits.overlapMs;
      startupPending = false;
    }
    if (batch.length > 0) {
      options.logger.info(
        `delivery sweep: asked GitHub to redeliver ${batch.length} of ${deliveries.length} logged deliveries` +
          (redeliveriesCut ? `; ${selected.length - batch.length} left for the next sweep` : ""),
      );
    }
    return {
      outcome: "swept",
      read: deliveries.length,
      redelivered: batch,
      truncated: pagesCut || redeliveriesCut,
    };
  }

  return {
    async sweep() {
      const now = options.now().getTime();
      if (running) return { outcome: "skipped", reason: "a sweep is running" };
      if (lastSweepAt !== undefined && now - lastSweepAt < limits.minIntervalMs) {
        return { outcome: "skipped", reason: "the last sweep was less than the minimum interval ago" };
      }
      running = true;
      lastSweepAt = now;
      try {
        return await sweepOnce(now);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        options.logger.warn(`delivery sweep failed (the next sweep covers its span): ${message}`);
        return { outcome: "failed", message };
      } finally {
        running = false;
      }
    },
    redeliveryRequested: (guid) => asked.has(guid),
  };
}
