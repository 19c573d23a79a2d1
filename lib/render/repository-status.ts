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
import type { BlockContent } from "mdast";
import {
  code,
  emphasis,
  heading,
  link,
  paragraph,
  plain,
  root,
  strong,
  table,
  type Inline,
} from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedInline } from "./tree/untrusted-text.ts";
import { progressBar } from "./tracking-dashboard.ts";
import type {
  StatusLink,
  StatusSprint,
  StatusTask,
  StatusAbout,
  RepositoryStatus,
} from "./repository-status-types.ts";
import { thousands } from "./thousands.ts";

export type * from "./repository-status-types.ts";

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
 * prose), then read as untrusted text: code spans kept, the rest text.
 */
function agentCell(text: string, max: number): Inline[] {
  return untrustedInline(shorten(text, max));
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

function issueLink(item: StatusLink): Inline {
  return link(item.url, `#${item.number}`);
}

function numberCell(number: number | undefined): Inline[] {
  return [number === undefined ? "—" : `#${number}`];
}

/** A section: its heading, then a table of at most `cap` rows and how many were left out (cut here or never read). */
function section(
  title: string,
  header: readonly string[],
  rows: readonly Inline[][][],
  cap: number,
  unread: number,
  noun: string,
): BlockContent[] {
  const head = heading(3, title);
  if (rows.length === 0 && unread === 0) return [head, paragraph(emphasis("None."))];
  const shown = rows.slice(0, cap);
  const more = rows.length - shown.length + unread;
  return [
    head,
    table(
      header.map(() => null),
      [header.map((name) => [name]), ...shown],
    ),
    ...(more > 0 ? [paragraph(emphasis(`…and ${more} more ${noun} not shown.`))] : []),
  ];
}

function aboutLine(about: StatusAbout): BlockContent {
  if (about.status === undefined)
    return paragraph(
      `#${about.number} is not queued. Label it `,
      code("locus:queued"),
      " or comment ",
      code("/locus run"),
      " to start work.",
    );
  const facts: Inline[][] = [
    about.pr === undefined ? [] : [`PR #${about.pr}`],
    about.runUrl ? [link(about.runUrl, "last run")] : [],
    about.attempts > 0 ? [`${about.attempts} attempt${about.attempts === 1 ? "" : "s"}`] : [],
    about.waitedMs === undefined ? [] : [`waiting ${waitedFor(about.waitedMs)} for an answer`],
  ].filter((fact) => fact.length > 0);
  return paragraph(
    `#${about.number} is `,
    code(about.status),
    ...facts.flatMap((fact) => [" · ", ...fact]),
    ".",
  );
}

function sprintRows(sprints: readonly StatusSprint[]): Inline[][][] {
  return sprints.map((sprint) => [
    [link(sprint.url, plain(shorten(sprint.title, MAX_TITLE)))],
    [code(progressBar(sprint.completed, sprint.total))],
    [SPRINT_STATE[sprint.state]],
    [sprint.trackingIssue ? issueLink(sprint.trackingIssue) : "—"],
  ]);
}

function taskCells(task: StatusTask): Inline[][] {
  return [
    [issueLink(task)],
    [plain(shorten(task.title, MAX_TITLE))],
    [task.sprint === undefined ? "—" : plain(shorten(task.sprint, MAX_TITLE))],
    [String(task.attempts)],
    numberCell(task.pr),
  ];
}

const TASK_HEADER = ["Issue", "Title", "Sprint", "Attempts", "PR"];

function questionCell(questions: readonly string[]): Inline[] {
  const [first] = questions;
  if (first === undefined) return ["—"];
  const more: Inline[] = questions.length > 1 ? [" ", emphasis(`(and ${questions.length - 1} more)`)] : [];
  return [...agentCell(first, MAX_QUESTION), ...more];
}

function budgetLine(budget: RepositoryStatus["budget"]): string {
  if (!budget) return "GitHub did not report the API budget.";
  const count = thousands;
  const reset = budget.resetAt.slice(11, 16);
  return `${count(budget.remaining)} of ${count(budget.limit)} GitHub API calls left, resets ${reset} UTC.`;
}

/** Built as one tree: titles, sprint names, questions and errors are text, so nothing in them can act. */
function render(status: RepositoryStatus, cap: number): string {
  return toGitHubMarkdown(
    root(
      heading(2, `Locus status: ${status.repository}`),
      status.about && aboutLine(status.about),
      section(
        `Active sprints (${status.sprints.length})`,
        ["Sprint", "Progress", "State", "Tracking issue"],
        sprintRows(status.sprints),
        cap,
        0,
        "sprints",
      ),
      status.moreMilestones > 0 &&
        paragraph(emphasis(`${status.moreMilestones} more open milestones were not read.`)),
      section(
        `Running (${status.running.length})`,
        TASK_HEADER,
        status.running.map(taskCells),
        cap,
        0,
        "tasks",
      ),
      section(`Queued (${status.queued.length})`, TASK_HEADER, status.queued.map(taskCells), cap, 0, "tasks"),
      section(
        `Waiting for an answer (${status.waiting.length})`,
        [...TASK_HEADER, "Question", "Waiting", "To answer"],
        status.waiting.map((task) => [
          ...taskCells(task),
          questionCell(task.questions),
          [task.waitedMs === undefined ? "—" : waitedFor(task.waitedMs)],
          ["reply on it (a writer), or ", code("/locus answer <text>")],
        ]),
        cap,
        0,
        "tasks",
      ),
      section(
        `Failed (${status.failed.length})`,
        [...TASK_HEADER, "Last error", "To retry"],
        status.failed.map((task) => [
          ...taskCells(task),
          [task.lastError ? plain(shorten(task.lastError, MAX_ERROR)) : "—"],
          ["comment ", code("/locus run"), " on it"],
        ]),
        cap,
        0,
        "tasks",
      ),
      status.moreTasks > 0 &&
        paragraph(
          emphasis(
            `${status.moreTasks} more open Locus issues were not read; filter the issues by label to see them.`,
          ),
        ),
      section(
        `Open Locus pull requests (${status.pullRequests.length + status.morePullRequests})`,
        ["PR", "Title", "Issue"],
        status.pullRequests.map((pr) => [
          [issueLink(pr)],
          [plain(shorten(pr.title, MAX_TITLE))],
          numberCell(pr.issue),
        ]),
        cap,
        status.morePullRequests,
        "pull requests",
      ),
      paragraph(strong("API budget:"), ` ${budgetLine(status.budget)}`),
    ),
  );
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
