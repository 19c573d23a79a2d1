/**
 * The app's webhook delivery log on GitHub, through the app's own Octokit
 * (its JWT, not an installation's token; Locus's retry and throttling policy).
 */
import type { Probot } from "probot";
import type { DeliveryLog } from "../lib/app/delivery-sweeper.ts";

/** The most GitHub returns per page. */
const PER_PAGE = 100;

export function gitHubDeliveryLog(app: Probot): DeliveryLog {
  return {
    async *pages() {
      const octokit = await app.auth();
      // GitHub pages this list by an opaque cursor in the `Link` header, which the iterator follows.
      const pages = octokit.paginate.iterator("GET /app/hook/deliveries", { per_page: PER_PAGE });
      for await (const { data } of pages) {
        yield data.map((delivery) => ({
          id: delivery.id,
          guid: delivery.guid,
          deliveredAt: delivery.delivered_at,
          statusCode: delivery.status_code,
          event: delivery.event,
          action: delivery.action,
          redelivery: delivery.redelivery,
        }));
      }
    },
    async redeliver(deliveryId) {
      const octokit = await app.auth();
      await octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: deliveryId });
    },
  };
}
