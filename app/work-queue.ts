/**
 * Acknowledge, then work: handlers hand their work here and return, so the
 * webhook is answered before any slow GitHub call. Work starts on a later
 * turn of the event loop, not in the handler's own microtasks: its first
 * steps (the gateway, the first request) would otherwise run before the
 * acknowledgement is written, and in a burst every delivery's would.
 * `drain()` lets tests and a graceful shutdown wait for work in flight.
 */
import type { Log } from "../lib/github/index.ts";

export interface WorkQueue {
  enqueue(label: string, work: () => Promise<void>): void;
  drain(): Promise<void>;
  readonly size: number;
}

export function createWorkQueue(log: Log): WorkQueue {
  const pending = new Set<Promise<void>>();
  return {
    enqueue(label, work) {
      const task = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((error: unknown) =>
          log.error(`${label} failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async drain() {
      while (pending.size > 0) await Promise.all(pending);
    },
    get size() {
      return pending.size;
    },
  };
}
