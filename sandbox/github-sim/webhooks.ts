import { createHmac, randomUUID } from "node:crypto";

// Deliveries are queued and sent one at a time, in order, off the request path, like GitHub's hookshot.

export interface WebhookDelivery {
  id: string;
  event: string;
  action: string | null;
  payload: Record<string, unknown>;
  body: string;
  headers: Record<string, string>;
  status: number | null;
  error: string | null;
}

export interface WebhookOptions {
  url?: string;
  secret?: string;
  onDelivery?: (delivery: WebhookDelivery) => void;
}

export interface WebhookQueue {
  readonly deliveries: readonly WebhookDelivery[];
  url: string | undefined;
  enqueue: (event: string, payload: Record<string, unknown>, targetId: number) => WebhookDelivery;
  drain: () => Promise<void>;
}

export function signPayload(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export function createWebhookQueue(options: WebhookOptions): WebhookQueue {
  const deliveries: WebhookDelivery[] = [];
  let tail: Promise<void> = Promise.resolve();

  async function send(delivery: WebhookDelivery): Promise<void> {
    if (queue.url) {
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
    }
    options.onDelivery?.(delivery);
  }

  const queue: WebhookQueue = {
    deliveries,
    url: options.url,
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
      if (options.secret !== undefined) {
        headers["x-hub-signature-256"] = signPayload(options.secret, body);
        headers["x-hub-signature"] = `sha1=${createHmac("sha1", options.secret).update(body).digest("hex")}`;
      }
      const action = typeof payload.action === "string" ? payload.action : null;
      const delivery: WebhookDelivery = {
        id,
        event,
        action,
        payload,
        body,
        headers,
        status: null,
        error: null,
      };
      deliveries.push(delivery);
      tail = tail.then(() => send(delivery));
      return delivery;
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
