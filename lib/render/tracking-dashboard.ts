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
import { formatUsd } from "./markdown.ts";
import {
  blockquote,
  code,
  codeBlock,
  heading,
  link,
  paragraph,
  plain,
  root,
  table,
  trustedHtml,
  type Inline,
} from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedMarkdown } from "./tree/untrusted-text.ts";

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

/**
 * Built as a tree: titles are text, the run's message (Locus's words around reasons and file
 * names from elsewhere) is read as untrusted Markdown, so nothing in either can act.
 */
export function renderTrackingDashboard(
  milestone: DashboardMilestone,
  tasks: readonly DashboardTask[],
  run: DashboardRun,
): string {
  const completed = tasks.filter((task) => isCompleted(statusOf(task.labels))).length;
  const due = milestone.dueOn ? ` · due ${milestone.dueOn.slice(0, 10)}` : "";
  const rows = tasks.map((task): Inline[][] => [
    [String(task.order ?? "—")],
    [`#${task.number}`],
    [plain(task.title.slice(0, MAX_TITLE).trim())],
    [statusName(task)],
    [task.pr === undefined ? "—" : `#${task.pr}`],
    [String(task.attempts ?? 0)],
    [duration(task.durationMs)],
    [task.costUsd === undefined ? "—" : formatUsd(task.costUsd)],
  ]);
  const header = ["Order", "Issue", "Title", "Status", "PR", "Attempts", "Duration", "Cost"].map((name) => [
    name,
  ]);
  const nodes = tasks.map(
    (task) =>
      `  I${task.number}["#${task.number} ${statusName(task)}"]:::${statusName(task).replace("-", "_")}`,
  );
  const edges = tasks.slice(1).map((task, index) => `  I${tasks[index]?.number} --> I${task.number}`);
  const classes = Object.entries(CLASSES).map(
    ([name, style]) => `  classDef ${name.replace("-", "_")} ${style}`,
  );
  const runLink: Inline[] = run.runUrl ? [" (", link(run.runUrl, "workflow run"), ")"] : [];
  const message = run.message ? blockquote(...untrustedMarkdown(run.message)) : undefined;
  const body = toGitHubMarkdown(
    root(
      trustedHtml(hiddenMarker("sprint", String(milestone.number))),
      heading(2, "Sprint: ", plain(milestone.title), due),
      paragraph(code(progressBar(completed, tasks.length)), ` completed · ${run.state}`, ...runLink),
      run.state !== "stopped" && message,
      table(["right", null, null, null, null, "right", "right", "right"], [header, ...rows]),
      codeBlock(["graph LR", ...nodes, ...edges, ...classes].join("\n"), "mermaid"),
      run.state === "stopped" && message && [heading(3, "Last stop"), message],
    ),
  );
  const state = hiddenMarker("sprint-state", embedJson({ milestone: milestone.number, ...run }));
  // The state comment goes last and survives any cut.
  return `${fitBody(body, 65_536 - state.length - 2)}\n\n${state}`;
}
