import { createHmac, randomUUID } from "node:crypto";

// Deliveries are queued and sent one at a time, in order, off the request path, like GitHub's hookshot.

export interface WebhookDelivery {
  /** The event's GUID (`X-GitHub-Delivery`), the same for every attempt at it. */
  id: string;
  /** GitHub's id of this attempt, as `GET /app/hook/deliveries` lists it. */
  deliveryId: number;
  /** True when the attempt was asked for with `POST /app/hook/deliveries/{id}/attempts`. */
  redelivery: boolean;
  event: string;
  action: string | null;
  payload: Record<string, unknown>;
  body: string;
  headers: Record<string, string>;
  /** When it was sent; null while queued, and for ever when no receiver URL was set. */
  deliveredAt: string | null;
  durationMs: number;
  /** The receiver's status code; null when it never answered. */
  status: number | null;
  error: string | null;
}

export interface WebhookOptions {
  url?: string;
  secret?: string;
  onDelivery?: (delivery: WebhookDelivery) => void;
  now?: () => Date;
}

export interface WebhookQueue {
  readonly deliveries: readonly WebhookDelivery[];
  url: string | undefined;
  /** Signs each delivery; the app manifest flow sets it when it registers the app. */
  secret: string | undefined;
  enqueue: (event: string, payload: Record<string, unknown>, targetId: number) => WebhookDelivery;
  /** Sends `original`'s event again: same body and GUID, a new attempt marked as a redelivery. */
  redeliver: (original: WebhookDelivery) => WebhookDelivery;
  drain: () => Promise<void>;
}

export function signPayload(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export function createWebhookQueue(options: WebhookOptions): WebhookQueue {
  const deliveries: WebhookDelivery[] = [];
  const now = options.now ?? (() => new Date());
  let tail: Promise<void> = Promise.resolve();
  let nextDeliveryId = 1;

  async function send(delivery: WebhookDelivery): Promise<void> {
    if (queue.url) {
      const started = performance.now();
      delivery.deliveredAt = now()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");
      try {
        const response = await fetch(queue.url, {
          method: "POST",
          headers: delivery.headers,
          body: delivery.body,
        });
        await response.arrayBuffer();
        delivery.status = response.status;
      } catch (error) {
        delivery.error = error instanceof Error ? error.message : String(error);
      }
      delivery.durationMs = performance.now() - started;
    }
    options.onDelivery?.(delivery);
  }

  function push(delivery: Omit<WebhookDelivery, "deliveryId">): WebhookDelivery {
    const queued: WebhookDelivery = { ...delivery, deliveryId: nextDeliveryId++ };
    deliveries.push(queued);
    tail = tail.then(() => send(queued));
    return queued;
  }

  const queue: WebhookQueue = {
    deliveries,
    url: options.url,
    secret: options.secret,
    enqueue(event, payload, targetId) {
      const body = JSON.stringify(payload);
      const id = randomUUID();
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": "GitHub-Hookshot/sim",
        "x-github-event": event,
        "x-github-delivery": id,
        "x-github-hook-id": "1",
        "x-github-hook-installation-target-type": "integration",
        "x-github-hook-installation-target-id": String(targetId),
      };
      if (queue.secret !== undefined) {
        headers["x-hub-signature-256"] = signPayload(queue.secret, body);
        headers["x-hub-signature"] = `sha1=${createHmac("sha1", queue.secret).update(body).digest("hex")}`;
      }
      const action = typeof payload.action === "string" ? payload.action : null;
      return push({
        id,
        redelivery: false,
        event,
        action,
        payload,
        body,
        headers,
        deliveredAt: null,
        durationMs: 0,
        status: null,
        error: null,
      });
    },
    redeliver(original) {
      return push({
        ...original,
        redelivery: true,
        deliveredAt: null,
        durationMs: 0,
        status: null,
        error: null,
      });
    },
    // A receiver may call the API while handling a delivery and so queue more; wait until the queue is quiet.
    async drain() {
      let seen: Promise<void> | undefined;
      while (seen !== tail) {
        seen = tail;
        await tail;
      }
    },
  };
  return queue;
}
