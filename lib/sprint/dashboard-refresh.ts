/**
 * The tracking dashboard between sprint runs: merges, failures, answers and
 * reorders change a sprint's labels while no run is there to redraw it, so the
 * app redraws it from the labels (which win) and from what the last drawing
 * recorded for each task (PR, attempts, duration, cost) and its run state.
 * Pure: the caller reads and writes.
 */
import { isCompleted, statusOf } from "../status-machine/status-machine.ts";
import { markerValue } from "../markers.ts";
import {
  renderTrackingDashboard,
  type DashboardMilestone,
  type DashboardRun,
  type DashboardTask,
} from "../render/tracking-dashboard.ts";
import { sortByOrder } from "./order.ts";
import type { SprintIssue } from "./sprint-issue.ts";

type Recorded = Pick<DashboardTask, "pr" | "attempts" | "durationMs" | "costUsd">;

function runStateOf(body: string): DashboardRun {
  try {
    const parsed = JSON.parse(markerValue(body, "sprint-state") ?? "{}") as Partial<DashboardRun>;
    const state = parsed.state === "running" || parsed.state === "finished" ? parsed.state : "stopped";
    return {
      state,
      ...(typeof parsed.message === "string" ? { message: parsed.message } : {}),
      ...(typeof parsed.runUrl === "string" ? { runUrl: parsed.runUrl } : {}),
    };
  } catch {
    return { state: "stopped" };
  }
}

function durationOf(cell: string): number | undefined {
  const match = /^(?:(\d+) min )?(\d+) s$/.exec(cell);
  return match ? (Number(match[1] ?? 0) * 60 + Number(match[2])) * 1000 : undefined;
}

/** Each task's row as last drawn: `| order | #N | title | status | #PR | attempts | duration | cost |`. */
function recordedRows(body: string): Map<number, Recorded> {
  const rows = new Map<number, Recorded>();
  for (const line of body.split("\n")) {
    const cells = line.split(" | ").map((cell) => cell.replace(/^\|\s*|\s*\|$/g, "").trim());
    const number = /^#(\d+)$/.exec(cells[1] ?? "")?.[1];
    if (number === undefined || cells.length < 8) continue;
    const pr = /^#(\d+)$/.exec(cells[4] ?? "")?.[1];
    const attempts = Number(cells[5]);
    const duration = durationOf(cells[6] ?? "");
    const cost = /^\$(\d+(?:\.\d+)?)$/.exec(cells[7] ?? "")?.[1];
    rows.set(Number(number), {
      ...(pr ? { pr: Number(pr) } : {}),
      ...(Number.isInteger(attempts) ? { attempts } : {}),
      ...(duration === undefined ? {} : { durationMs: duration }),
      ...(cost ? { costUsd: Number(cost) } : {}),
    });
  }
  return rows;
}

export function redrawDashboard(
  milestone: DashboardMilestone,
  issues: ReadonlyArray<SprintIssue & { readonly title: string }>,
  previous: string,
): string {
  const recorded = recordedRows(previous);
  const shown = issues.filter((issue) => issue.state === "open" || isCompleted(statusOf(issue.labels)));
  const { ordered, unordered } = sortByOrder(shown);
  const tasks: DashboardTask[] = [
    ...ordered.map(({ issue, order }) => ({ issue, order: order })),
    ...unordered.map((issue) => ({ issue, order: undefined })),
  ].map(({ issue, order }) => ({
    number: issue.number,
    title: issue.title,
    order,
    labels: issue.labels,
    ...recorded.get(issue.number),
  }));
  return renderTrackingDashboard(milestone, tasks, runStateOf(previous));
}
