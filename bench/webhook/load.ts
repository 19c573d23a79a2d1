/** autocannon against a receiver, each request a fresh delivery id, bounded by time or count. */
import autocannon from "autocannon";
import { randomUUID } from "node:crypto";
import type { Delivery } from "./payload.ts";

export interface LoadResult {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly ok: number;
  readonly failed: number;
}

/** Each connection sends `delivery` (or each of several, in turn), every time with a new id. */
export async function load(
  url: string,
  delivery: Delivery | readonly Delivery[],
  shape: { connections: number; seconds?: number; amount?: number },
): Promise<LoadResult> {
  const deliveries: readonly Delivery[] = "body" in delivery ? [delivery] : delivery;
  const result = await autocannon({
    url,
    method: "POST",
    connections: shape.connections,
    ...(shape.amount !== undefined ? { amount: shape.amount } : { duration: shape.seconds ?? 5 }),
    // GitHub gives up after 10 s; anything slower is a lost delivery.
    timeout: 10,
    requests: deliveries.map((each) => ({
      body: each.body,
      headers: each.headers,
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, "x-github-delivery": randomUUID() },
      }),
    })),
  });
  const ok = result["2xx"];
  return {
    perSecond: ok / (result.duration || 1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    ok,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}
