// What one read gives a coding task (docs/architecture.md "Prompt": only what existed at
// trigger time is used, so each body comes with its edit history).
import type { Comment, IssueWithComments, Milestone, PullRequest } from "./records.ts";

/** One revision of a body: the whole text, or null when GitHub no longer shows it (deleted). */
export type BodyRevision = { editedAt: string; body: string | null; editor?: string };

export type EditHistory = {
  createdAt: string;
  /** null when the body was never edited. */
  lastEditedAt: string | null;
  /** The revisions GitHub returned, oldest first. */
  revisions: BodyRevision[];
  /** Whether `revisions` starts with the text as created. */
  includesCreated: boolean;
  /** Older revisions exist than those returned. */
  truncated: boolean;
};

export type TaskComment = Comment & { history: EditHistory };

/** One event of an issue's timeline that can start or shape work: who did it and when. */
export type TimelineEvent = { actor: string; createdAt: string } & (
  | { kind: "labeled"; label: string }
  | { kind: "milestoned"; milestoneTitle: string }
  | { kind: "renamed"; previousTitle: string; currentTitle: string }
);

export type IssueTimeline = {
  /** The newest label, milestone and rename events GitHub returned, oldest first. */
  events: TimelineEvent[];
  /** Older events exist than those returned. */
  truncated: boolean;
};

export type TaskIssue = Omit<IssueWithComments, "comments"> & {
  comments: TaskComment[];
  history: EditHistory;
  /** Read for issues (not pull requests): the acts that trigger work and the title's renames. */
  timeline?: IssueTimeline;
};

/** A status-comment candidate on an issue Locus touched: its body and whether this token wrote it. */
export type SpendComment = { body: string; author: string; viewerDidAuthor: boolean };

export type TaskReadOptions = {
  /** The workflow run's URL, to learn when GitHub created it. */
  runUrl?: string;
  /** Also list the comments of the issues and pull requests updated since then (the day's spend). */
  spendSince?: string;
  /** The label every issue Locus touches carries (a sprint's tracking issue is found by it). */
  managedLabel: string;
};

export type RunAndSpend = {
  defaultBranch: string;
  /** When GitHub created the workflow run; null when it could not be resolved. */
  runCreatedAt: string | null;
  /** null when not asked for. */
  spend: SpendComment[] | null;
};

export type TaskRead = RunAndSpend & {
  /** null when the number is not an issue (a pull request, or nothing). */
  issue: TaskIssue | null;
  isPullRequest: boolean;
};

/** An issue or pull request with its conversation and edit histories; `pullRequest` is set for a pull request. */
export type TaskThread = TaskIssue & { pullRequest: PullRequest | null };

export type ThreadRead = RunAndSpend & {
  /** null when the number names nothing. */
  thread: TaskThread | null;
};

export type SprintMilestone = Pick<Milestone, "number" | "title" | "description" | "state" | "dueOn" | "url">;

export type SprintRead = RunAndSpend & {
  /** null when the milestone does not exist. */
  milestone: SprintMilestone | null;
  /** Every issue of the milestone, open and closed, oldest first. */
  issues: TaskIssue[];
  /** Open issues carrying the managed label, newest first (the tracking issue is among them). */
  managedOpen: { number: number; nodeId?: string; title: string; author: string; labels: string[] }[];
};
