/**
 * The sprint's tracking issue (`Sprint: <name>`, `agent:managed`, kept out of
 * the milestone so it is never a task): its body is the live dashboard — the
 * tasks in order with status, PR and attempts, a mermaid chart of the
 * sequence, and the run state as JSON in an HTML comment. Labels win over the
 * JSON whenever they disagree; the JSON is for tracing a run.
 */
import { type IssuePort, type Issue } from "../github/index.ts";
import { isLocus } from "../github/locus-identity.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import type { DashboardRun, DashboardTask } from "../render/tracking-dashboard.ts";

export type TrackedTask = DashboardTask;
export type SprintRunState = DashboardRun;

export function trackingTitle(milestone: { title: string }): string {
  return `Sprint: ${milestone.title}`;
}

export function isTrackingIssue(issue: { title: string; labels: readonly string[] }, title: string): boolean {
  return issue.title === title && issue.labels.includes(MANAGED_LABEL);
}

/**
 * The tracking issue among the open managed issues already read: its number,
 * or none yet. Only one Locus opened counts: anyone with triage access can
 * title an issue `Sprint: …` and label it `agent:managed`.
 */
export function trackingIssueAmong(
  openManaged: readonly {
    number: number;
    nodeId?: string;
    title: string;
    author: string;
    labels: readonly string[];
  }[],
  title: string,
  self: readonly string[],
): { number: number | undefined; nodeId: string | undefined; shown: string | undefined } {
  const own = openManaged.filter((issue) => isLocus(self, issue.author));
  const found = own.find((issue) => isTrackingIssue(issue, title));
  return { number: found?.number, nodeId: found?.nodeId, shown: undefined };
}

/** Creates the tracking issue already showing `body`, so its first state costs no second write. */
export function createTrackingIssue(
  gateway: Pick<IssuePort, "createIssue">,
  title: string,
  body: string,
): Promise<Issue> {
  return gateway.createIssue({ title, body, labels: [MANAGED_LABEL] });
}
