/**
 * The sprint dashboard: what `/locus status` replies and what the tracking
 * issue shows. Rows in execution order, with a chart of the sequence.
 */
import { statusOf } from "../labels/status.ts";
import { planSprint } from "../sprint/plan.ts";
import { sortByOrder } from "../sprint/order.ts";
import type { SprintIssue } from "../sprint/sprint-issue.ts";
import { tableCell } from "./markdown.ts";

export interface DashboardIssue extends SprintIssue {
  readonly title: string;
}

const ICONS: Readonly<Record<string, string>> = {
  queued: "⏳ queued",
  "in-progress": "🔧 in progress",
  "in-review": "👀 in review",
  done: "✅ done",
  failed: "❌ failed",
};

export function renderSprintDashboard(
  milestone: { title: string },
  issues: readonly DashboardIssue[],
): string {
  const { ordered, unordered } = sortByOrder(issues);
  const rows = [...ordered, ...unordered.map((issue) => ({ issue, order: undefined }))];
  const status = (issue: DashboardIssue) => {
    const value = statusOf(issue.labels);
    if (value) return ICONS[value] ?? value;
    return issue.state === "closed" ? "closed" : "pending";
  };
  const table = rows.map(
    ({ issue, order }) =>
      `| ${order ?? "—"} | #${issue.number} | ${tableCell(issue.title)} | ${status(issue)} |`,
  );
  const plan = planSprint(issues);
  const done = issues.filter((issue) => statusOf(issue.labels) === "done").length;
  const next = plan.tasks[0];
  const nodes = rows.map(({ issue }) => `  I${issue.number}["#${issue.number} ${status(issue)}"]`);
  const edges = rows
    .slice(1)
    .map(({ issue }, index) => `  I${rows[index]?.issue.number} --> I${issue.number}`);
  return [
    `### Sprint: ${tableCell(milestone.title)}`,
    "",
    `${done} of ${issues.length} done${next ? ` · next: #${next.issue.number}` : ""}${
      plan.unordered.length > 0 ? ` · without an order: ${plan.unordered.map((n) => `#${n}`).join(", ")}` : ""
    }`,
    "",
    "| Order | Issue | Title | Status |",
    "| ---: | --- | --- | --- |",
    ...table,
    "",
    "```mermaid",
    "graph LR",
    ...nodes,
    ...edges,
    "```",
  ].join("\n");
}
