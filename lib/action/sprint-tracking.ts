/**
 * The sprint's tracking issue (`Sprint: <name>`, `agent:managed`, kept out of
 * the milestone so it is never a task): its body is the live dashboard — the
 * tasks in order with status, PR and attempts, a mermaid chart of the
 * sequence, and the run state as JSON in an HTML comment. Labels win over the
 * JSON whenever they disagree; the JSON is for tracing a run.
 */
import type { GitHubGateway, Issue } from "../github/index.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import { statusOf } from "../labels/status.ts";
import { hiddenMarker, tableCell } from "../render/markdown.ts";

export interface TrackedTask {
  readonly number: number;
  readonly title: string;
  readonly order: number | undefined;
  readonly labels: readonly string[];
  readonly pr?: number;
  readonly attempts?: number;
}

export interface SprintRunState {
  readonly runUrl?: string;
  readonly state: "running" | "stopped" | "finished";
  readonly message?: string;
}

export function trackingTitle(milestone: { title: string }): string {
  return `Sprint: ${milestone.title}`;
}

export function isTrackingIssue(issue: { title: string; labels: readonly string[] }, title: string): boolean {
  return issue.title === title && issue.labels.includes(MANAGED_LABEL);
}

export function renderTrackingBody(
  milestone: { number: number; title: string },
  tasks: readonly TrackedTask[],
  run: SprintRunState,
): string {
  const rows = tasks.map(
    (task) =>
      `| ${task.order ?? "—"} | #${task.number} ${tableCell(task.title)} | ${statusOf(task.labels) ?? "pending"} | ${
        task.pr === undefined ? "—" : `#${task.pr}`
      } | ${task.attempts ?? 0} |`,
  );
  const nodes = tasks.map(
    (task) => `  I${task.number}["#${task.number} ${statusOf(task.labels) ?? "pending"}"]`,
  );
  const edges = tasks.slice(1).map((task, index) => `  I${tasks[index]?.number} --> I${task.number}`);
  const json = JSON.stringify({ milestone: milestone.number, ...run }).replace(/-->/g, "--\\u003e");
  return [
    hiddenMarker("sprint", String(milestone.number)),
    `Live dashboard of milestone **${tableCell(milestone.title)}**, kept by Locus.`,
    run.message ? `> ${run.message.replace(/\n/g, "\n> ")}` : "",
    "| Order | Issue | Status | PR | Attempts |",
    "| ---: | --- | --- | --- | ---: |",
    ...rows,
    "",
    ["```mermaid", "graph LR", ...nodes, ...edges, "```"].join("\n"),
    `<!-- locus:sprint-state ${json} -->`,
  ]
    .filter((part) => part !== "")
    .join("\n");
}

/** Finds the tracking issue among the open managed issues, or creates it. */
export async function ensureTrackingIssue(
  gateway: GitHubGateway,
  milestone: { number: number; title: string },
): Promise<Issue> {
  const title = trackingTitle(milestone);
  const open = await gateway.listIssues({ state: "open", labels: [MANAGED_LABEL] });
  const found = open.find((issue) => !issue.isPullRequest && isTrackingIssue(issue, title));
  if (found) return found;
  return gateway.createIssue({
    title,
    body: renderTrackingBody(milestone, [], { state: "running" }),
    labels: [MANAGED_LABEL],
  });
}
