/**
 * An issue taken out of a milestone leaves its sprint, so its `order:N` goes
 * too: the order means a position in that sprint, and kept it would put the
 * issue at a stale position if it ever joined another. Labels are re-read
 * (the event may be late) and set in one write.
 */
import type { Issue } from "../github/index.ts";
import { isOrderLabel } from "../sprint/order.ts";
import type { AppContext } from "../app/app-context.ts";

export async function removeOrder(
  ctx: AppContext,
  issue: Pick<Issue, "number" | "labels">,
): Promise<"removed" | "ignored"> {
  if (!issue.labels.some(isOrderLabel)) return "ignored";
  const current = await ctx.gateway.getIssue(issue.number);
  // Back in a milestone already (moved between sprints): its order is assigned there.
  if (!current || current.milestone !== null || !current.labels.some(isOrderLabel)) return "ignored";
  await ctx.gateway.setLabels(
    issue.number,
    current.labels.filter((label) => !isOrderLabel(label)),
  );
  return "removed";
}
