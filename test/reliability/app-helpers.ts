/**
 * Helpers for driving the real app with deliveries the test controls: the
 * simulator records the webhooks GitHub would send, the test holds them and
 * sends them itself (replayed, reordered, in parallel), and a second replica
 * of the app can be started against the same simulated GitHub.
 */
import { createHmac } from "node:crypto";
import { pino } from "pino";
import type { LocusApp } from "../../app/index.ts";
import type { WebhookDelivery } from "../../sandbox/github-sim/webhooks.ts";
import { startAppOnSimulator } from "../../sandbox/world/app-on-simulator.ts";
import type { AppHarness } from "../app/harness.ts";
import { WEBHOOK_SECRET } from "../app/harness.ts";

export function sign(body: string, secret = WEBHOOK_SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Runs `act` with the simulator's webhook sending switched off and returns
 * the deliveries GitHub would have sent meanwhile, unsent.
 */
export async function hold(h: AppHarness, act: () => Promise<unknown>): Promise<WebhookDelivery[]> {
  await h.settle();
  const url = h.sim.webhooks.url;
  const before = h.sim.webhooks.deliveries.length;
  h.sim.webhooks.url = undefined;
  try {
    await act();
    await h.sim.webhooks.drain();
  } finally {
    h.sim.webhooks.url = url;
  }
  const held = h.sim.webhooks.deliveries.slice(before);
  // The harness waits for every delivery to be answered; these never will be by GitHub.
  for (const delivery of held) delivery.error = "held back by the test";
  return held;
}

/** Sends one delivery exactly as GitHub sent (or would have sent) it; resolves with the status code. */
export async function send(
  url: string,
  delivery: Pick<WebhookDelivery, "headers" | "body">,
  extraHeaders: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...delivery.headers, ...extraHeaders },
    body: delivery.body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

export interface Replica {
  readonly url: string;
  readonly locus: LocusApp;
  close(): Promise<void>;
}

/** Another app process (a replica, or the app after a restart): fresh memory, same GitHub. */
export async function startReplica(h: AppHarness): Promise<Replica> {
  const app = await startAppOnSimulator(h.sim, {
    secret: WEBHOOK_SECRET,
    log: pino({ level: "silent" }),
    receiveWebhooks: false,
  });
  return {
    url: app.webhookUrl,
    locus: app.locus,
    close: async () => {
      await app.locus.work.drain();
      await app.close();
    },
  };
}
