/**
 * Redraws a sprint's tracking dashboard after a change the app made between
 * runs (a merge, a PR closed, a run that died, an answer, a reorder). Only a
 * tracking issue Locus opened counts; without one nothing is created — the
 * next sprint run does that. A redraw that changes nothing writes nothing.
 */
import { isLocus } from "../github/locus-identity.ts";
import { isTrackingIssue, trackingTitle } from "../sprint/sprint-tracking.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import { redrawDashboard } from "../sprint/dashboard-refresh.ts";
import type { AppContext } from "../app/app-context.ts";

export async function refreshDashboard(ctx: AppContext, milestoneNumber: number | null): Promise<void> {
  if (milestoneNumber === null) return;
  try {
    const milestone = (await ctx.gateway.listMilestones({ state: "open" })).find(
      (candidate) => candidate.number === milestoneNumber,
    );
    if (!milestone) return;
    const title = trackingTitle(milestone);
    const tracking = (await ctx.gateway.listIssues({ state: "open", labels: [MANAGED_LABEL] })).find(
      (issue) => isTrackingIssue(issue, title) && isLocus(ctx.selfLogins, issue.author),
    );
    if (!tracking) return;
    const issues = (await ctx.gateway.listMilestoneIssues(milestoneNumber)) ?? [];
    const body = redrawDashboard(
      milestone,
      issues.filter((issue) => issue.number !== tracking.number),
      tracking.body,
    );
    if (body !== tracking.body.replace(/\r\n/g, "\n"))
      await ctx.gateway.updateIssue(tracking.number, { body });
  } catch (error) {
    // The dashboard mirrors the labels; a failed redraw must not undo the change it follows.
    ctx.log.warn(`could not redraw the dashboard of milestone ${milestoneNumber}: ${String(error)}`);
  }
}
