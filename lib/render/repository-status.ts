/**
 * The reply to `/locus status`: the repository at a glance. A line about the
 * issue the command was posted on, the active sprints with their progress,
 * the running, queued and failed tasks, the open Locus pull requests and the
 * GitHub API budget left. A pure function of its input; it fits a comment,
 * showing fewer rows per table (and saying how many are left out) when the
 * whole would not.
 */
import { GITHUB_BODY_LIMIT, fitBody } from "./comment-limit.ts";
import { tableCell } from "./markdown.ts";
import { progressBar } from "./tracking-dashboard.ts";

export interface StatusLink {
  readonly number: number;
  readonly url: string;
}

export interface StatusSprint {
  readonly title: string;
  readonly url: string;
  readonly completed: number;
  readonly total: number;
  /** `running` while a task is in progress; `stopped` on a failed task; `waiting` for work to be queued. */
  readonly state: "running" | "stopped" | "waiting" | "finished";
  readonly trackingIssue?: StatusLink;
}

export interface StatusTask extends StatusLink {
  readonly title: string;
  /** The title of its milestone. */
  readonly sprint?: string;
  readonly attempts: number;
  readonly pr?: number;
  readonly lastError?: string;
}

export interface StatusPullRequest extends StatusLink {
  readonly title: string;
  /** The issue it closes (its branch `locus/issue-<N>`). */
  readonly issue?: number;
}

/** The issue the command was posted on. */
export type StatusAbout =
  | { readonly number: number; readonly status: undefined }
  | {
      readonly number: number;
      readonly status: string;
      readonly pr?: number;
      readonly runUrl?: string;
      readonly attempts: number;
    };

export interface RepositoryStatus {
  /** `owner/name`. */
  readonly repository: string;
  readonly about?: StatusAbout;
  readonly sprints: readonly StatusSprint[];
  /** Open milestones not read (beyond GitHub's first page). */
  readonly moreMilestones: number;
  readonly running: readonly StatusTask[];
  readonly queued: readonly StatusTask[];
  readonly failed: readonly StatusTask[];
  /** Tasks not read (beyond GitHub's first page). */
  readonly moreTasks: number;
  readonly pullRequests: readonly StatusPullRequest[];
  readonly morePullRequests: number;
  /** The GitHub API budget: null when GitHub did not report it. */
  readonly budget: { readonly limit: number; readonly remaining: number; readonly resetAt: string } | null;
}

const MAX_TITLE = 80;
const MAX_ERROR = 120;
/** Rows per table tried in turn until the reply fits. */
const ROW_CAPS = [Infinity, 50, 20, 10, 5];
/** What the reply adds after the summary: its reply-to marker and any notes. */
const REPLY_ROOM = 1_000;

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

function link(item: StatusLink): string {
  return `[#${item.number}](${item.url})`;
}

function numberCell(number: number | undefined): string {
  return number === undefined ? "—" : `#${number}`;
}

/** A table of at most `cap` rows, then how many were left out (cut here or never read). */
function table(
  header: readonly string[],
  rows: readonly string[][],
  cap: number,
  unread: number,
  noun: string,
): string {
  if (rows.length === 0 && unread === 0) return "_None._";
  const shown = rows.slice(0, cap);
  const more = rows.length - shown.length + unread;
  const lines = [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...shown.map((cells) => `| ${cells.join(" | ")} |`),
  ];
  if (more > 0) lines.push("", `_…and ${more} more ${noun} not shown._`);
  return lines.join("\n");
}

function aboutLine(about: StatusAbout): string {
  if (about.status === undefined)
    return `#${about.number} is not queued. Label it \`locus:queued\` or comment \`/locus run\` to start work.`;
  const facts = [
    about.pr === undefined ? "" : `PR #${about.pr}`,
    about.runUrl ? `[last run](${about.runUrl})` : "",
    about.attempts > 0 ? `${about.attempts} attempt${about.attempts === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return `#${about.number} is \`${about.status}\`${facts.length > 0 ? ` · ${facts.join(" · ")}` : ""}.`;
}

function sprintRows(sprints: readonly StatusSprint[]): string[][] {
  return sprints.map((sprint) => [
    `[${tableCell(shorten(sprint.title, MAX_TITLE))}](${sprint.url})`,
    `\`${progressBar(sprint.completed, sprint.total)}\``,
    sprint.state,
    sprint.trackingIssue ? link(sprint.trackingIssue) : "—",
  ]);
}

function taskCells(task: StatusTask): string[] {
  return [
    link(task),
    tableCell(shorten(task.title, MAX_TITLE)),
    task.sprint === undefined ? "—" : tableCell(shorten(task.sprint, MAX_TITLE)),
    String(task.attempts),
    numberCell(task.pr),
  ];
}

const TASK_HEADER = ["Issue", "Title", "Sprint", "Attempts", "PR"];

function budgetLine(budget: RepositoryStatus["budget"]): string {
  if (!budget) return "GitHub did not report the API budget.";
  const count = (n: number) => n.toLocaleString("en-US");
  const reset = budget.resetAt.slice(11, 16);
  return `${count(budget.remaining)} of ${count(budget.limit)} GitHub API calls left, resets ${reset} UTC.`;
}

function render(status: RepositoryStatus, cap: number): string {
  const blocks = [
    `## Locus status: ${status.repository}`,
    status.about ? aboutLine(status.about) : "",
    `### Active sprints (${status.sprints.length})\n\n${table(
      ["Sprint", "Progress", "State", "Tracking issue"],
      sprintRows(status.sprints),
      cap,
      0,
      "sprints",
    )}${status.moreMilestones > 0 ? `\n\n_${status.moreMilestones} more open milestones were not read._` : ""}`,
    `### Running (${status.running.length})\n\n${table(TASK_HEADER, status.running.map(taskCells), cap, 0, "tasks")}`,
    `### Queued (${status.queued.length})\n\n${table(TASK_HEADER, status.queued.map(taskCells), cap, 0, "tasks")}`,
    `### Failed (${status.failed.length})\n\n${table(
      [...TASK_HEADER, "Last error", "To retry"],
      status.failed.map((task) => [
        ...taskCells(task),
        task.lastError ? tableCell(shorten(task.lastError, MAX_ERROR)) : "—",
        "comment `/locus run` on it",
      ]),
      cap,
      0,
      "tasks",
    )}`,
    status.moreTasks > 0
      ? `_${status.moreTasks} more open Locus issues were not read; filter the issues by label to see them._`
      : "",
    `### Open Locus pull requests (${status.pullRequests.length + status.morePullRequests})\n\n${table(
      ["PR", "Title", "Issue"],
      status.pullRequests.map((pr) => [
        link(pr),
        tableCell(shorten(pr.title, MAX_TITLE)),
        numberCell(pr.issue),
      ]),
      cap,
      status.morePullRequests,
      "pull requests",
    )}`,
    `**API budget:** ${budgetLine(status.budget)}`,
  ];
  return blocks.filter(Boolean).join("\n\n");
}

export function renderRepositoryStatus(
  status: RepositoryStatus,
  limit = GITHUB_BODY_LIMIT - REPLY_ROOM,
): string {
  let body = "";
  for (const cap of ROW_CAPS) {
    body = render(status, cap);
    if (body.length <= limit) return body;
  }
  return fitBody(body, limit);
}
