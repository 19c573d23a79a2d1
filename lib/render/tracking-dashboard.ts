/**
 * The sprint tracking issue's body: a live dashboard, rewritten at every
 * transition. A header with the due date and a progress bar, the tasks in
 * order (status, PR, attempts, duration, cost), a mermaid chart of the
 * sequence coloured by status, the last stop with what to do about it, and
 * the run state as JSON in an HTML comment. A pure function of its input.
 */
import { isCompleted, statusOf } from "../status-machine/status-machine.ts";
import { fitBody } from "./comment-limit.ts";
import { embedJson, hiddenMarker } from "../markers.ts";
import { formatUsd, tableCell } from "./markdown.ts";

export interface DashboardTask {
  readonly number: number;
  readonly title: string;
  readonly order: number | undefined;
  readonly labels: readonly string[];
  readonly pr?: number;
  readonly attempts?: number;
  /** Time the last run of this task took. */
  readonly durationMs?: number;
  readonly costUsd?: number;
}

export interface DashboardRun {
  readonly runUrl?: string;
  readonly state: "running" | "stopped" | "finished";
  readonly message?: string;
}

export interface DashboardMilestone {
  readonly number: number;
  readonly title: string;
  readonly dueOn?: string | null;
}

const BAR_WIDTH = 8;
const MAX_TITLE = 80;

const CLASSES: Readonly<Record<string, string>> = {
  pending: "fill:#f6f8fa,stroke:#8c959f",
  queued: "fill:#ddf4ff,stroke:#54aeff",
  "in-progress": "fill:#fff8c5,stroke:#d4a72c",
  waiting: "fill:#fff1a8,stroke:#bf8700",
  "in-review": "fill:#fbefff,stroke:#c297ff",
  done: "fill:#dafbe1,stroke:#4ac26b",
  failed: "fill:#ffebe9,stroke:#ff8182",
};

export function progressBar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `${"█".repeat(filled)}${"░".repeat(width - filled)} ${done}/${total}`;
}

function duration(ms: number | undefined): string {
  if (ms === undefined) return "—";
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return minutes > 0 ? `${minutes} min ${seconds} s` : `${seconds} s`;
}

function statusName(task: DashboardTask): string {
  return statusOf(task.labels) ?? "pending";
}

export function renderTrackingDashboard(
  milestone: DashboardMilestone,
  tasks: readonly DashboardTask[],
  run: DashboardRun,
): string {
  const completed = tasks.filter((task) => isCompleted(statusOf(task.labels))).length;
  const due = milestone.dueOn ? ` · due ${milestone.dueOn.slice(0, 10)}` : "";
  const rows = tasks.map((task) => {
    const title = tableCell(task.title.slice(0, MAX_TITLE));
    const pr = task.pr === undefined ? "—" : `#${task.pr}`;
    const cost = task.costUsd === undefined ? "—" : formatUsd(task.costUsd);
    return `| ${task.order ?? "—"} | #${task.number} | ${title} | ${statusName(task)} | ${pr} | ${task.attempts ?? 0} | ${duration(task.durationMs)} | ${cost} |`;
  });
  const nodes = tasks.map(
    (task) =>
      `  I${task.number}["#${task.number} ${statusName(task)}"]:::${statusName(task).replace("-", "_")}`,
  );
  const edges = tasks.slice(1).map((task, index) => `  I${tasks[index]?.number} --> I${task.number}`);
  const classes = Object.entries(CLASSES).map(
    ([name, style]) => `  classDef ${name.replace("-", "_")} ${style}`,
  );
  const runLink = run.runUrl ? ` ([workflow run](${run.runUrl}))` : "";
  const quote = (text: string) => `> ${text.replace(/\n/g, "\n> ")}`;
  const state = hiddenMarker("sprint-state", embedJson({ milestone: milestone.number, ...run }));
  const blocks = [
    `${hiddenMarker("sprint", String(milestone.number))}\n## Sprint: ${tableCell(milestone.title)}${due}`,
    `\`${progressBar(completed, tasks.length)}\` completed · ${run.state}${runLink}`,
    run.message && run.state !== "stopped" ? quote(run.message) : "",
    [
      "| Order | Issue | Title | Status | PR | Attempts | Duration | Cost |",
      "| ---: | --- | --- | --- | --- | ---: | ---: | ---: |",
      ...rows,
    ].join("\n"),
    ["```mermaid", "graph LR", ...nodes, ...edges, ...classes, "```"].join("\n"),
    run.message && run.state === "stopped" ? `### Last stop\n\n${quote(run.message)}` : "",
  ];
  const body = blocks.filter((block) => block !== "").join("\n\n");
  // The state comment goes last and survives any cut.
  return `${fitBody(body, 65_536 - state.length - 1)}\n${state}`;
}
