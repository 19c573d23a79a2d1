/**
 * The app's webhook delivery log (`GET /app/hook/deliveries`) and redelivery
 * (`POST /app/hook/deliveries/{delivery_id}/attempts`), with the app's JWT.
 * Every attempt is one entry, newest first, paged by GitHub's opaque cursor
 * (`v1_<id>`, only a `next` link); an attempt that got no answer has status
 * code 0. A redelivery sends the same body with the same GUID.
 */
import type { RequestContext, Route, RouteResult } from "./core.ts";
import { notFound, validationFailed } from "./http-error.ts";
import { intParam } from "./route-helpers.ts";
import type { WebhookDelivery } from "./webhooks.ts";

function succeeded(delivery: WebhookDelivery): boolean {
  return delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
}

function statusText(delivery: WebhookDelivery): string {
  if (delivery.status === null) return "failed to connect to host";
  return succeeded(delivery) ? "OK" : `Invalid HTTP Response: ${delivery.status}`;
}

function idOf(payload: Record<string, unknown>, key: string): number | null {
  const value = (payload[key] as { id?: unknown } | undefined)?.id;
  return typeof value === "number" ? value : null;
}

function deliveryJson(delivery: WebhookDelivery & { deliveredAt: string }): Record<string, unknown> {
  return {
    id: delivery.deliveryId,
    guid: delivery.id,
    delivered_at: delivery.deliveredAt,
    redelivery: delivery.redelivery,
    duration: Math.round(delivery.durationMs) / 1000,
    status: statusText(delivery),
    status_code: delivery.status ?? 0,
    event: delivery.event,
    action: delivery.action,
    installation_id: idOf(delivery.payload, "installation"),
    repository_id: idOf(delivery.payload, "repository"),
    throttled_at: null,
  };
}

/** Attempts GitHub has made, newest first; a delivery still queued (or with nowhere to go) is not one yet. */
function attempts(ctx: RequestContext): Array<WebhookDelivery & { deliveredAt: string }> {
  return ctx.core.webhooks.deliveries
    .filter(
      (delivery): delivery is WebhookDelivery & { deliveredAt: string } => delivery.deliveredAt !== null,
    )
    .sort((a, b) => b.deliveryId - a.deliveryId);
}

function parseCursor(cursor: string | null): number {
  if (cursor === null) return Number.POSITIVE_INFINITY;
  const match = /^v1_(\d+)$/.exec(cursor);
  if (!match) throw validationFailed([{ resource: "Hook", field: "cursor", code: "invalid" }]);
  return Number(match[1]);
}

function listDeliveries(ctx: RequestContext): RouteResult {
  const perPage = Math.min(100, Math.max(1, Number(ctx.query.get("per_page") ?? "30") || 30));
  const before = parseCursor(ctx.query.get("cursor"));
  const wanted = ctx.query.get("status");
  const matching = attempts(ctx).filter(
    (delivery) =>
      delivery.deliveryId < before && (wanted === null || (wanted === "success") === succeeded(delivery)),
  );
  const page = matching.slice(0, perPage);
  const last = page.at(-1);
  const headers: Record<string, string> = {};
  if (last && matching.length > perPage) {
    const query = new URLSearchParams(ctx.query);
    query.set("per_page", String(perPage));
    query.set("cursor", `v1_${last.deliveryId}`);
    headers.link = `<${ctx.requestBase}${ctx.path}?${query.toString()}>; rel="next"`;
  }
  return { status: 200, body: page.map(deliveryJson), headers };
}

function redeliver(ctx: RequestContext): RouteResult {
  const deliveryId = intParam(ctx, "delivery_id");
  const original = attempts(ctx).find((delivery) => delivery.deliveryId === deliveryId);
  if (!original) throw notFound();
  ctx.core.webhooks.redeliver(original);
  return { status: 202, body: {} };
}

export const hookDeliveryRoutes: Route[] = [
  { method: "GET", template: "/app/hook/deliveries", auth: "jwt", handler: listDeliveries },
  {
    method: "POST",
    template: "/app/hook/deliveries/{delivery_id}/attempts",
    auth: "jwt",
    handler: redeliver,
  },
];
