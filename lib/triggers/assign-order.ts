/** An issue added to a milestone gets `order:{max+1}` unless it already has an order. */
import type { Issue } from "../github/index.ts";
import { orderLabel } from "../labels/schema.ts";
import { nextOrder, orderOf, withOrder } from "../sprint/order.ts";
import type { AppContext } from "../app/app-context.ts";

export async function assignOrder(
  ctx: AppContext,
  issue: Pick<Issue, "number" | "labels">,
  milestone: number,
): Promise<number | undefined> {
  if (orderOf(issue.labels) !== undefined) return undefined;
  const issues = await ctx.gateway.listMilestoneIssues(milestone);
  if (!issues) return undefined;
  const order = nextOrder(issues.filter((other) => other.number !== issue.number));
  await ctx.gateway.createLabel(orderLabel(order));
  await ctx.gateway.setLabels(issue.number, withOrder(issue.labels, order));
  return order;
}
