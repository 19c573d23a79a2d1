/**
 * `/locus status`'s one read turned into what its reply shows: which open
 * milestones are sprints and where each stands, the tasks by status with
 * what their status comments record, and the pull requests with the issues
 * they close. Labels are the truth for status; a status comment counts only
 * when Locus wrote it, so a person's copy of one changes nothing.
 */
import { trackingTitle } from "../sprint/sprint-tracking.ts";
import { ACTIONS_BOT } from "../github/locus-identity.ts";
import type { RepositoryStatusRead, SpendComment, StatusIssue } from "../github/index.ts";
import { statusLabel, type Status } from "../labels/schema.ts";
import { statusOf } from "../status-machine/status-machine.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { RepositoryStatus, StatusAbout, StatusSprint, StatusTask } from "../render/repository-status.ts";
import { EMPTY_STATE, isStatusComment, readStatusState, type StatusState } from "./status-comment.ts";

// GraphQL names a bot without the `[bot]` its REST login carries.
function loginKey(login: string): string {
  return login.toLowerCase().replace(/\[bot\]$/, "");
}

function stateIn(comments: readonly SpendComment[], own: ReadonlySet<string>): StatusState {
  const comment = comments.find(
    (c) => isStatusComment(c.body) && (c.viewerDidAuthor || own.has(loginKey(c.author))),
  );
  return comment ? readStatusState(comment.body) : EMPTY_STATE;
}

function sprintState(milestone: number, tasks: readonly StatusIssue[], done: boolean): StatusSprint["state"] {
  const statuses = tasks.filter((task) => task.milestone === milestone).map((task) => statusOf(task.labels));
  if (statuses.includes("in-progress")) return "running";
  // A waiting task stops its sprint until someone answers.
  if (statuses.includes("waiting")) return "asking";
  if (statuses.includes("failed")) return "stopped";
  return done ? "finished" : "waiting";
}

export function summarizeRepository(
  read: RepositoryStatusRead,
  options: { repository: string; selfLogins: readonly string[]; about: number; now: Date },
): RepositoryStatus {
  const own = new Set([...options.selfLogins, ACTIONS_BOT].map(loginKey));
  const sprints = read.milestones.filter((milestone) => milestone.withStatus > 0);
  const sprintTitles = new Map(read.milestones.map((milestone) => [milestone.number, milestone.title]));
  const taskOf = (issue: StatusIssue): StatusTask => {
    const state = stateIn(issue.comments, own);
    return {
      number: issue.number,
      url: issue.url,
      title: issue.title,
      sprint: issue.milestone === null ? undefined : sprintTitles.get(issue.milestone),
      attempts: state.attempts,
      pr: state.pr,
      lastError: state.lastError,
    };
  };
  const tasksIn = (status: Status): StatusTask[] =>
    read.tasks.filter((issue) => statusOf(issue.labels) === status).map(taskOf);
  return {
    repository: options.repository,
    about: aboutOf(read, own, options.about, options.now),
    sprints: sprints.map((milestone) => {
      const tracking = read.managedOpen.find((issue) => issue.title === trackingTitle(milestone));
      return {
        title: milestone.title,
        url: milestone.url,
        completed: milestone.completed,
        total: milestone.tasks,
        state: sprintState(milestone.number, read.tasks, milestone.completed === milestone.tasks),
        trackingIssue: tracking && { number: tracking.number, url: tracking.url },
      };
    }),
    moreMilestones: read.moreMilestones,
    running: tasksIn("in-progress"),
    queued: tasksIn("queued"),
    waiting: read.tasks
      .filter((issue) => statusOf(issue.labels) === "waiting")
      .map((issue) => {
        const waiting = stateIn(issue.comments, own).waiting;
        const waitedMs = waitedSince(waiting?.askedAt, options.now);
        return {
          ...taskOf(issue),
          questions: waiting?.questions ?? [],
          ...(waitedMs === undefined ? {} : { waitedMs }),
        };
      }),
    failed: tasksIn("failed"),
    moreTasks: read.moreTasks,
    pullRequests: read.pullRequests.map((pr) => ({
      number: pr.number,
      url: pr.url,
      title: pr.title,
      issue: issueOfBranch(pr.headRef),
    })),
    morePullRequests: read.morePullRequests,
    budget: read.rateLimit,
  };
}

/** The issue the command was posted on; nothing for a pull request. */
function aboutOf(
  read: RepositoryStatusRead,
  own: ReadonlySet<string>,
  number: number,
  now: Date,
): StatusAbout | undefined {
  if (!read.about) return undefined;
  const status = statusOf(read.about.labels);
  if (!status) return { number, status: undefined };
  const state = stateIn(read.about.comments, own);
  const waitedMs = status === "waiting" ? waitedSince(state.waiting?.askedAt, now) : undefined;
  return {
    number,
    status: statusLabel(status),
    pr: state.pr,
    runUrl: state.runUrl,
    attempts: state.attempts,
    ...(waitedMs === undefined ? {} : { waitedMs }),
  };
}

/** How long since a question was asked; undefined when the time is missing or unreadable. */
function waitedSince(askedAt: string | undefined, now: Date): number | undefined {
  const at = askedAt === undefined ? NaN : Date.parse(askedAt);
  return Number.isNaN(at) ? undefined : Math.max(0, now.getTime() - at);
}
