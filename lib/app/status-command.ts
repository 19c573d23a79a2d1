/**
 * `/locus status`: the sprint dashboard (the same rendering as the tracking
 * issue, built from the labels, which are the truth), or one issue's status.
 */
import { statusLabel } from "../labels/schema.ts";
import { isCompleted, statusOf } from "../labels/status.ts";
import {
  renderTrackingDashboard,
  type DashboardRun,
  type DashboardTask,
} from "../render/tracking-dashboard.ts";
import { sortByOrder } from "../sprint/order.ts";
import { readStatus } from "../status/status-store.ts";
import type { AppContext } from "./app-context.ts";

export async function statusCommand(
  ctx: AppContext,
  target: { number: number; labels: readonly string[]; milestone: number | null },
): Promise<string> {
  if (target.milestone !== null) {
    const [milestone, issues] = await Promise.all([
      ctx.gateway.getMilestone(target.milestone),
      ctx.gateway.listMilestoneIssues(target.milestone),
    ]);
    if (milestone && issues) {
      const { ordered, unordered } = sortByOrder(
        issues.filter((issue) => issue.state === "open" || isCompleted(statusOf(issue.labels))),
      );
      const tasks: DashboardTask[] = [
        ...ordered.map(({ issue, order }) => ({
          number: issue.number,
          title: issue.title,
          order,
          labels: issue.labels,
        })),
        ...unordered.map((issue) => ({
          number: issue.number,
          title: issue.title,
          order: undefined,
          labels: issue.labels,
        })),
      ];
      return renderTrackingDashboard(milestone, tasks, sprintState(tasks));
    }
  }
  const status = statusOf(target.labels);
  if (!status)
    return `#${target.number} is not queued. Label it \`locus:queued\` or comment \`/locus run\` to start work.`;
  const state = await readStatus(ctx.gateway, target.number);
  const facts = [
    state.pr === undefined ? "" : `PR #${state.pr}`,
    state.runUrl ? `[last run](${state.runUrl})` : "",
    state.attempts > 0 ? `${state.attempts} attempt${state.attempts === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return `#${target.number} is \`${statusLabel(status)}\`${facts.length > 0 ? ` · ${facts.join(" · ")}` : ""}.`;
}

function sprintState(tasks: readonly DashboardTask[]): DashboardRun {
  const status = (wanted: string) => tasks.find((task) => statusOf(task.labels) === wanted);
  const failed = status("failed");
  if (status("in-progress")) return { state: "running" };
  if (failed)
    return {
      state: "stopped",
      message: `#${failed.number} failed; comment \`/locus run\` on it to resume the sprint.`,
    };
  if (tasks.every((task) => isCompleted(statusOf(task.labels)))) return { state: "finished" };
  return {
    state: "stopped",
    message: "Waiting: label an issue `locus:queued`, or add `locus: active` to the milestone's description.",
  };
}
