/**
 * Which of the app's webhook deliveries to ask GitHub to send again. GitHub
 * never redelivers by itself, so an event whose delivery failed (the app was
 * down, or answered non-2xx) is lost unless the app asks; and an event the app
 * acknowledged just before it crashed is lost too, though GitHub counts it a
 * success. A redelivery carries the same GUID, and the app acts on a GUID at
 * most once, so asking again is safe; asking twice is only waste, which the
 * rule avoids. Pure: the sweeper reads the log and sends the requests.
 */

/** One attempt in GitHub's delivery log (`GET /app/hook/deliveries`). */
export interface HookDelivery {
  readonly id: number;
  readonly guid: string;
  readonly deliveredAt: string;
  /** The app's answer; 0 when it gave none (refused connection, timeout). */
  readonly statusCode: number;
  readonly event: string;
  readonly action: string | null;
  readonly redelivery: boolean;
}

export interface RedeliveryWindow {
  /** Events whose attempts all failed are redelivered when their latest attempt is this recent. */
  readonly failedSince: Date;
  /**
   * Only on the first sweep after the app started: events it acknowledged in
   * this span and acts on, whose work a crash may have eaten after the 2xx.
   */
  readonly acknowledgedBetween?: { readonly from: Date; readonly to: Date };
  readonly actsOn: (event: string, action: string | null) => boolean;
  /** GUIDs this process already asked for; GitHub lists a redelivery only once it is made. */
  readonly requested: ReadonlySet<string>;
}

export interface Redelivery {
  /** The attempt to repeat (`POST /app/hook/deliveries/{id}/attempts`). */
  readonly deliveryId: number;
  readonly guid: string;
  readonly reason: "failed" | "acknowledged-before-start";
}

function succeeded(delivery: Pick<HookDelivery, "statusCode">): boolean {
  return delivery.statusCode >= 200 && delivery.statusCode < 300;
}

function within(at: string, from: Date, to: Date): boolean {
  const time = Date.parse(at);
  return time >= from.getTime() && time <= to.getTime();
}

/** One redelivery per GUID that needs one, oldest event first so they arrive in the order they happened. */
export function selectRedeliveries(
  deliveries: readonly HookDelivery[],
  window: RedeliveryWindow,
): Redelivery[] {
  const byGuid = new Map<string, HookDelivery[]>();
  for (const delivery of deliveries) {
    const attempts = byGuid.get(delivery.guid) ?? [];
    attempts.push(delivery);
    byGuid.set(delivery.guid, attempts);
  }
  const selected: Array<Redelivery & { at: number }> = [];
  for (const [guid, attempts] of byGuid) {
    // Someone (this sweeper before, another replica, a person) already asked: its outcome is theirs.
    if (window.requested.has(guid) || attempts.some((attempt) => attempt.redelivery)) continue;
    const newest = attempts.reduce((a, b) => (b.id > a.id ? b : a));
    const answered = attempts.find(succeeded);
    if (!answered) {
      if (Date.parse(newest.deliveredAt) >= window.failedSince.getTime()) {
        selected.push({ deliveryId: newest.id, guid, reason: "failed", at: Date.parse(newest.deliveredAt) });
      }
      continue;
    }
    const span = window.acknowledgedBetween;
    if (
      span &&
      within(answered.deliveredAt, span.from, span.to) &&
      window.actsOn(answered.event, answered.action)
    ) {
      selected.push({
        deliveryId: answered.id,
        guid,
        reason: "acknowledged-before-start",
        at: Date.parse(answered.deliveredAt),
      });
    }
  }
  return selected
    .sort((a, b) => a.at - b.at || a.deliveryId - b.deliveryId)
    .map(({ deliveryId, guid, reason }) => ({ deliveryId, guid, reason }));
}
