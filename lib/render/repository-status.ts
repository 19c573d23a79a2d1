/**
 * The reply to `/locus status`: the repository at a glance. A line about the
 * issue the command was posted on, the active sprints with their progress,
 * the running and queued tasks, those waiting for an answer (with their
 * question and how long they have waited), the failed ones, the open Locus
 * pull requests and the
 * GitHub API budget left. A pure function of its input; it fits a comment,
 * showing fewer rows per table (and saying how many are left out) when the
 * whole would not.
 */
import { GITHUB_BODY_LIMIT, fitBody } from "./comment-limit.ts";
import { tableCell } from "./markdown.ts";
import { toTableCellMarkdown } from "./tree/serialize.ts";
import { untrustedInline } from "./tree/untrusted-text.ts";
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
  /**
   * `running` while a task is in progress; `asking` while a task waits for an answer; `stopped` on a
   * failed task; `waiting` for work to be queued.
   */
  readonly state: "running" | "asking" | "stopped" | "waiting" | "finished";
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

/** A task whose agent asked: its questions (the agent's words) and how long ago it asked. */
export interface StatusWaitingTask extends StatusTask {
  readonly questions: readonly string[];
  /** Undefined when its status comment does not say when it asked. */
  readonly waitedMs?: number;
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
      /** Set while it waits for an answer. */
      readonly waitedMs?: number;
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
  readonly waiting: readonly StatusWaitingTask[];
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
const MAX_QUESTION = 200;
/** Rows per table tried in turn until the reply fits. */
const ROW_CAPS = [Infinity, 50, 20, 10, 5];
/** What the reply adds after the summary: its reply-to marker and any notes. */
const REPLY_ROOM = 1_000;

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The agent's words in one table cell: cut first (so no code span is cut open and what it held read as
 * prose), then pinging and closing nobody and loading nothing, with no HTML that could hide the rest
 * of the reply.
 */
function agentCell(text: string, max: number): string {
  return toTableCellMarkdown(untrustedInline(shorten(text, max)));
}

/** `3 min`, `5 h`, `2 days`: how long a task has waited, to the unit that matters. */
export function waitedFor(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

const SPRINT_STATE: Readonly<Record<StatusSprint["state"], string>> = {
  running: "running",
  asking: "waiting for an answer",
  stopped: "stopped",
  waiting: "waiting",
  finished: "finished",
};

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
    about.waitedMs === undefined ? "" : `waiting ${waitedFor(about.waitedMs)} for an answer`,
  ].filter(Boolean);
  return `#${about.number} is \`${about.status}\`${facts.length > 0 ? ` · ${facts.join(" · ")}` : ""}.`;
}

function sprintRows(sprints: readonly StatusSprint[]): string[][] {
  return sprints.map((sprint) => [
    `[${tableCell(shorten(sprint.title, MAX_TITLE))}](${sprint.url})`,
    `\`${progressBar(sprint.completed, sprint.total)}\``,
    SPRINT_STATE[sprint.state],
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

function questionCell(questions: readonly string[]): string {
  const [first] = questions;
  if (first === undefined) return "—";
  const more = questions.length > 1 ? ` _(and ${questions.length - 1} more)_` : "";
  return `${agentCell(first, MAX_QUESTION)}${more}`;
}

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
    `### Waiting for an answer (${status.waiting.length})\n\n${table(
      [...TASK_HEADER, "Question", "Waiting", "To answer"],
      status.waiting.map((task) => [
        ...taskCells(task),
        questionCell(task.questions),
        task.waitedMs === undefined ? "—" : waitedFor(task.waitedMs),
        "reply on it (a writer), or `/locus answer <text>`",
      ]),
      cap,
      0,
      "tasks",
    )}`,
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
