// Plain data in and out of the gateway: nothing here depends on Octokit, so the
// app, the Action and tests share one vocabulary. Types only, importing only
// other types-only files (the records, each read's result), never an implementation.
import type { CiReads } from "./ci-read-types.ts";
import type {
  NewReview,
  PullRequestFeedback,
  Review,
  ReviewComment,
  ThreadReply,
} from "./pull-review-types.ts";
import type { DispatchedRun, WorkflowRun, WorkflowRunFilter } from "./workflow-run-types.ts";
import type { Comment, Issue, IssueState, IssueWithComments, Milestone, PullRequest } from "./records.ts";
import type { RepositoryStatusOptions, RepositoryStatusRead } from "./repository-status-types.ts";
import type { SprintRead, TaskRead, TaskReadOptions, ThreadRead } from "./task-types.ts";
import type { DependencyReview } from "./dependency-review-types.ts";
import type { CommitWrites } from "./branch-commit-types.ts";
import type { AttachmentReads } from "./attachment-types.ts";

export type * from "./records.ts";
export type * from "./pull-review-types.ts";
export type * from "./workflow-run-types.ts";
export type * from "./branch-commit-types.ts";
export type * from "./attachment-types.ts";

export type Log = {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
};

export type RepoRef = { owner: string; repo: string };

export type LabelDef = { name: string; color: string; description?: string };

export type Label = { name: string; color: string; description: string | null };

export type EnsureLabelsResult = { created: string[]; updated: string[]; unchanged: string[] };

/** One write of a moment batched by `writeMoment`: a whole label set, or a comment's new body. */
export type MomentWrite =
  | {
      kind: "labels";
      number: number;
      /** The issue's or pull request's global id; without it the write goes over REST. */
      nodeId?: string | undefined;
      pullRequest: boolean;
      labels: readonly string[];
    }
  | { kind: "comment"; comment: Pick<Comment, "id" | "nodeId">; body: string }
  /** An issue's new body (the sprint dashboard); a best-effort one may fail without failing the rest. */
  | { kind: "body"; number: number; nodeId?: string | undefined; body: string; bestEffort?: boolean }
  /** A new comment on an issue or pull request: created once, never twice. */
  | { kind: "new-comment"; number: number; nodeId?: string | undefined; body: string };

/** What a moment's writes left: each label write's label set as GitHub answered it, each new comment by issue. */
export type MomentResult = {
  labels: ReadonlyMap<number, string[]>;
  comments: ReadonlyMap<number, Comment>;
};

/** An issue as a listing gives it, with when it last changed (a label change counts). */
export type ListedIssue = Issue & { updatedAt: string };

export type NewIssue = { title: string; body?: string; labels?: string[]; milestone?: number };

export type IssuePatch = { title?: string; body?: string; state?: IssueState; milestone?: number | null };

export type IssueFilter = {
  state?: IssueState | "all";
  labels?: string[];
  milestone?: number | "none" | "*";
};

export type MilestoneIssue = {
  /** The issue's global id, when the read brought it (a batched label write names the issue by it). */
  nodeId?: string;
  number: number;
  title: string;
  body: string;
  state: IssueState;
  labels: string[];
};

export type NewMilestone = { title: string; description?: string; state?: IssueState; dueOn?: string };

export type MilestonePatch = Partial<NewMilestone>;

export type UpsertResult = { action: "created" | "updated" | "unchanged"; comment: Comment };

export type ReactionContent = "+1" | "-1" | "laugh" | "confused" | "heart" | "hooray" | "rocket" | "eyes";

export type ReactionTarget = { issue: number } | { commentId: number } | { reviewCommentId: number };

export type NewPullRequest = { title: string; body: string; head: string; base: string; draft?: boolean };

export type PullRequestPatch = { title?: string; body?: string; base?: string; state?: IssueState };

export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export type RateLimitState = {
  resource: string;
  limit: number;
  remaining: number;
  used: number;
  /** Epoch milliseconds at which the window resets. */
  resetAt: number;
};

export type CallCounterSnapshot = {
  total: number;
  reads: number;
  writes: number;
  notModified: number;
  retries: number;
  /** Keyed by `METHOD /route/{template}` or `graphql query|mutation Name`. */
  byRoute: Record<string, number>;
  /** GraphQL rate-limit points spent: each query's `rateLimit.cost` as GitHub answered it, 1 per mutation. */
  graphqlPoints: number;
  /** The points by `graphql query|mutation Name`. */
  pointsByRoute: Record<string, number>;
};

export type CallCounter = {
  record(call: { key: string; write: boolean; notModified: boolean; retries: number; points?: number }): void;
  snapshot(): CallCounterSnapshot;
};

/** The open pull requests based on a branch: the PRs stacked on a PR are those based on its head branch. */
export interface PullStackReads {
  pullsOnto(base: string): Promise<PullRequest[]>;
}

// The gateway's roles: a function takes the few it uses (a `Pick` of one for a
// single member), never the whole `GitHubGateway`, so a test hands it a small fake.

/** Which repository, and what its calls have cost so far. */
export interface RepositoryMeters {
  readonly repo: RepoRef;
  readonly counter: CallCounter;
  rateLimits(): RateLimitState[];
}

/** Reads of the repository itself: its default branch, a file, a collaborator's role. */
export interface RepositoryReads {
  getDefaultBranch(): Promise<string>;
  /** The user's role on the repository; "none" for someone GitHub does not know as a collaborator. */
  getCollaboratorPermission(user: string): Promise<Permission>;
  /** A file's text at `ref` (default branch when omitted); null when there is no such file. */
  getFileContent(path: string, ref?: string): Promise<string | null>;
  /** The dependencies `head` adds or removes against `base`, with their known advisories (dependency review). */
  compareDependencies(base: string, head: string): Promise<DependencyReview>;
}

/** Label writes: the repository's label set and an issue's. */
export interface LabelWrites {
  /** One list (paged past 100 labels), then a create per missing label and an update per label whose colour or description differs. Names match case-insensitively. */
  ensureLabels(defs: LabelDef[]): Promise<EnsureLabelsResult>;
  createLabel(def: LabelDef): Promise<"created" | "exists">;
  /** Replaces the issue's whole label set in one PUT; answers the labels it now has. */
  setLabels(issue: number, names: string[]): Promise<string[]>;
  /** Takes one label off; false when the issue did not have it. GitHub answers only one of two concurrent removals, so this is a claim. */
  removeLabel(issue: number, name: string): Promise<boolean>;
}

/** The writes of one moment, batched. */
export interface MomentWrites {
  /**
   * The writes of one moment (label sets, comment edits), in order, as one
   * GraphQL request when every id they need is known, else one REST call each.
   */
  writeMoment(writes: readonly MomentWrite[]): Promise<MomentResult>;
}

/** Issues: read, list, open, edit. */
export interface IssuePort {
  /** The issue (or PR, as an issue) with all its comments; null when it does not exist. */
  getIssue(issue: number): Promise<IssueWithComments | null>;
  listIssues(filter?: IssueFilter): Promise<ListedIssue[]>;
  createIssue(issue: NewIssue): Promise<Issue>;
  updateIssue(issue: number, patch: IssuePatch): Promise<Issue>;
  /** Every issue of the milestone, open and closed, one GraphQL request per 100; null when the milestone does not exist. */
  listMilestoneIssues(milestone: number): Promise<MilestoneIssue[] | null>;
}

/** An issue's or pull request's conversation: comments, sticky comments, reactions. */
export interface CommentPort {
  listIssueComments(issue: number, opts?: { since?: string }): Promise<Comment[]>;
  createComment(issue: number, body: string): Promise<Comment>;
  updateComment(commentId: number, body: string): Promise<Comment>;
  /** The first comment whose body starts with `<!-- marker -->`. */
  findCommentByMarker(issue: number, marker: string): Promise<Comment | null>;
  /** The sticky comment keyed by `marker`: created, edited in place, or left alone when its body is already `body`. */
  upsertComment(issue: number, marker: string, body: string): Promise<UpsertResult>;
  addReaction(target: ReactionTarget, content: ReactionContent): Promise<void>;
}

/** Milestones (a sprint is one). */
export interface MilestonePort {
  listMilestones(opts?: { state?: IssueState | "all" }): Promise<Milestone[]>;
  getMilestone(milestone: number): Promise<Milestone | null>;
  createMilestone(milestone: NewMilestone): Promise<Milestone>;
  updateMilestone(milestone: number, patch: MilestonePatch): Promise<Milestone>;
}

/** Pull requests: open, find, edit, and their reviews and feedback. */
export interface PullRequestPort {
  createPullRequest(pr: NewPullRequest): Promise<PullRequest>;
  findPullRequestByHead(branch: string, opts?: { state?: IssueState | "all" }): Promise<PullRequest | null>;
  getPullRequest(pr: number): Promise<PullRequest | null>;
  updatePullRequest(pr: number, patch: PullRequestPatch): Promise<PullRequest>;
  /** The unified diff, as GitHub renders it for the PR. */
  getPullRequestDiff(pr: number): Promise<string>;
  listReviewComments(pr: number, opts?: { since?: string }): Promise<ReviewComment[]>;
  listReviews(pr: number): Promise<Review[]>;
  /** The PR with its labels, conversation, reviews and review threads, and its linked issue with comments. Null when the PR does not exist. */
  getPullRequestFeedback(
    pr: number,
    options: {
      linkedIssue: (headRef: string) => number | undefined;
      runUrl?: string;
      /** Also read the day's spend (see `TaskReadOptions`). */
      spendSince?: string;
    },
  ): Promise<PullRequestFeedback | null>;
  /** Replies in review threads (resolving those asked) and a comment on `subjectId`, in one GraphQL request. */
  answerReviewFeedback(
    replies: readonly ThreadReply[],
    comment: { subjectId: string; body: string },
  ): Promise<void>;
  createReview(pr: number, review: NewReview): Promise<Review>;
}

/** The one-request reads of a run: a task, a thread, a sprint, the repository's status. */
export interface TaskReads {
  /** A coding task's issue with comments and edit histories, plus what the run needs besides, in one GraphQL read. */
  readTask(issue: number, options: TaskReadOptions): Promise<TaskRead>;
  /** An issue or pull request (the thread of ask, plan or review) as `readTask` reads an issue, in one GraphQL read. */
  readThread(number: number, options: TaskReadOptions): Promise<ThreadRead>;
  /** A sprint's milestone and every issue of it as `readTask` reads one, one GraphQL read per 100 issues. */
  readSprint(milestone: number, options: TaskReadOptions): Promise<SprintRead>;
  /** What `/locus status` shows of the whole repository, in one GraphQL read. */
  readRepositoryStatus(options: RepositoryStatusOptions): Promise<RepositoryStatusRead>;
}

/** Workflow runs: start one, list them, cancel one. */
export interface DispatchPort {
  /**
   * Starts a run of the workflow and answers it, as GitHub reports it with
   * `return_run_details`. Null when GitHub answered without the run (204:
   * a GitHub Enterprise Server without run details); the run is then known
   * only by its name, which carries the delivery id.
   */
  dispatchWorkflow(
    workflow: string,
    ref: string,
    inputs: Record<string, string>,
  ): Promise<DispatchedRun | null>;
  /** The newest runs of the workflow (one page, 100 by default): enough to find live or recent runs. */
  listWorkflowRuns(workflow: string, filter?: WorkflowRunFilter): Promise<WorkflowRun[]>;
  cancelWorkflowRun(runId: number): Promise<"cancelled" | "already-finished">;
}

/** What failed in CI. */
export interface CiPort {
  /** What failed in CI: failed jobs and check runs, annotations, job logs. */
  readonly ci: CiReads;
}

/** Pull requests stacked on a branch. */
export interface StackPort {
  /** Pull requests stacked on a branch. */
  readonly stack: PullStackReads;
}

/** Attached files. */
export interface AttachmentPort {
  readonly attachments: AttachmentReads;
}

/** Everything Locus does on GitHub, bound to one repository: every role at once. Only a runtime's entry holds it whole. */
export type GitHubGateway = RepositoryMeters &
  RepositoryReads &
  LabelWrites &
  MomentWrites &
  IssuePort &
  CommentPort &
  MilestonePort &
  PullRequestPort &
  TaskReads &
  DispatchPort &
  CommitWrites &
  CiPort &
  StackPort &
  AttachmentPort;
