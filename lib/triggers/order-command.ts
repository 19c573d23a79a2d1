/**
 * `/locus order 17 15 16`: reorder a sprint's unfinished issues (docs/architecture.md "Ordering"),
 * posted on an issue of the sprint or on its tracking issue.
 */
import { isLocus } from "../github/locus-identity.ts";
import { orderLabel } from "../labels/schema.ts";
import { reorder } from "../sprint/reorder.ts";
import { isTrackingIssue, trackingTitle } from "../sprint/sprint-tracking.ts";
import type { AppContext } from "../app/app-context.ts";
import { refreshDashboard } from "./refresh-dashboard.ts";

export async function orderCommand(
  ctx: AppContext,
  target: { number: number; milestone: number | null },
  requested: readonly number[],
): Promise<string> {
  const milestone = target.milestone ?? (await trackedMilestone(ctx, target.number));
  if (milestone === null)
    return "`/locus order` works on an issue of a sprint or on its tracking issue: this issue is in no milestone.";
  const issues = await ctx.gateway.listMilestoneIssues(milestone);
  if (!issues) return "The milestone of this issue no longer exists.";
  const result = reorder(issues, requested);
  if (!result.ok) return result.message;
  for (const change of result.changes) {
    await ctx.gateway.createLabel(orderLabel(change.to));
    await ctx.gateway.setLabels(change.number, change.labels);
  }
  if (result.changes.length > 0) await refreshDashboard(ctx, milestone);
  const sequence = requested
    .map((number, index) => `\`order:${result.floor + 1 + index}\` #${number}`)
    .join(", ");
  return result.changes.length === 0 ? `Already in that order: ${sequence}.` : `New order: ${sequence}.`;
}

/** The open milestone whose tracking issue this is (`Sprint: <name>`, opened by Locus), or null. */
async function trackedMilestone(ctx: AppContext, number: number): Promise<number | null> {
  const issue = await ctx.gateway.getIssue(number);
  if (!issue || !isLocus(ctx.selfLogins, issue.author)) return null;
  const milestones = await ctx.gateway.listMilestones({ state: "open" });
  return milestones.find((m) => isTrackingIssue(issue, trackingTitle(m)))?.number ?? null;
}
