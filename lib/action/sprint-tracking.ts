/**
 * The sprint's tracking issue (`Sprint: <name>`, `agent:managed`, kept out of
 * the milestone so it is never a task): its body is the live dashboard — the
 * tasks in order with status, PR and attempts, a mermaid chart of the
 * sequence, and the run state as JSON in an HTML comment. Labels win over the
 * JSON whenever they disagree; the JSON is for tracing a run.
 */
import type { GitHubGateway } from "../github/index.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import {
  renderTrackingDashboard,
  type DashboardMilestone,
  type DashboardRun,
  type DashboardTask,
} from "../render/tracking-dashboard.ts";

export type TrackedTask = DashboardTask;
export type SprintRunState = DashboardRun;

export function trackingTitle(milestone: { title: string }): string {
  return `Sprint: ${milestone.title}`;
}

export function isTrackingIssue(issue: { title: string; labels: readonly string[] }, title: string): boolean {
  return issue.title === title && issue.labels.includes(MANAGED_LABEL);
}

/** Finds the tracking issue among the open managed issues (already read), or creates it. */
export async function ensureTrackingIssue(
  gateway: GitHubGateway,
  milestone: DashboardMilestone,
  openManaged: readonly { number: number; title: string; labels: readonly string[] }[],
): Promise<{ number: number }> {
  const title = trackingTitle(milestone);
  const found = openManaged.find((issue) => isTrackingIssue(issue, title));
  if (found) return found;
  return gateway.createIssue({
    title,
    body: renderTrackingDashboard(milestone, [], { state: "running" }),
    labels: [MANAGED_LABEL],
  });
}
