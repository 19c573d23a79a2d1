/**
 * The state behind the typed GitHub fake (github-fake.ts): issues and pull
 * requests in one numbering (as on GitHub), comments with ids, authors and
 * times from an injectable clock, labels as sets, milestones, workflow runs,
 * branches and files. Plain data a test can seed and inspect; every gateway
 * call is recorded here, by member name and arguments.
 */
import type {
  BodyRevision,
  Comment,
  Issue,
  IssueState,
  Label,
  Milestone,
  MomentWrite,
  Permission,
  PullRequest,
  RepoRef,
  WorkflowRun,
} from "../../lib/github/index.ts";
import type { FakeCheckRun, FakeReview, FakeThread } from "./fake-review-records.ts";
import type { TimelineEvent } from "../../lib/github/task-types.ts";
import type { Clock } from "../../lib/task/context.ts";

/** One gateway call as a test asserts on it: which member, with what. */
export interface FakeCall {
  readonly member: string;
  readonly args: readonly unknown[];
}

export interface FakePull {
  head: { ref: string; sha: string };
  base: { ref: string };
  merged: boolean;
  draft: boolean;
  diff: string;
  reviews: FakeReview[];
  /** Line conversations, each opened by a review's line comment; replies and resolution live on it. */
  threads: FakeThread[];
  /** The head branch is in another repository: what the REST read says as `fromFork`. */
  fromFork: boolean;
}

export interface FakeIssue {
  number: number;
  nodeId: string;
  title: string;
  body: string;
  /** The body's earlier texts, oldest first (empty: never edited). */
  bodyRevisions: BodyRevision[];
  state: IssueState;
  labels: Set<string>;
  milestone: number | null;
  author: string;
  createdAt: string;
  updatedAt: string;
  timeline: TimelineEvent[];
  pull: FakePull | null;
}

export interface FakeComment extends Comment {
  nodeId: string;
  issue: number;
  /** Every text the comment had, oldest first, once it was edited. */
  revisions: BodyRevision[];
}

export interface FakeStore {
  readonly repo: RepoRef;
  readonly clock: Clock;
  /** The login the gateway writes as (Locus's bot). */
  readonly self: string;
  defaultBranch: string;
  readonly issues: Map<number, FakeIssue>;
  readonly comments: FakeComment[];
  /** The repository's labels, keyed by lower-cased name (GitHub matches them case-insensitively). */
  readonly labels: Map<string, Label>;
  readonly milestones: Map<number, Milestone>;
  readonly workflowRuns: WorkflowRun[];
  /** Check runs (a workflow job is one, as on GitHub), of workflow runs and other apps' suites. */
  readonly checkRuns: FakeCheckRun[];
  /** The commit each workflow run or check suite ran on, and when it last changed. */
  readonly ciHeads: Map<number, { sha: string; updatedAt: string }>;
  readonly branches: Map<string, string>;
  /** Files of the default branch, by path. */
  readonly files: Map<string, string>;
  readonly permissions: Map<string, Permission>;
  readonly calls: FakeCall[];
  /** Every `writeMoment` batch, in order: what a moment wrote, typed. */
  readonly moments: (readonly MomentWrite[])[];
  /** A fresh id for a comment, a run, a node: ids never repeat within one fake. */
  nextId(): number;
  now(): string;
  record(member: string, args: readonly unknown[]): void;
}

export function createFakeStore(repo: RepoRef, clock: Clock, self: string, defaultBranch: string): FakeStore {
  let id = 1000;
  const calls: FakeCall[] = [];
  return {
    repo,
    clock,
    self,
    defaultBranch,
    issues: new Map(),
    comments: [],
    labels: new Map(),
    milestones: new Map(),
    workflowRuns: [],
    checkRuns: [],
    ciHeads: new Map(),
    branches: new Map([[defaultBranch, "0".repeat(40)]]),
    files: new Map(),
    permissions: new Map(),
    calls,
    moments: [],
    nextId: () => (id += 1),
    now: () => clock.now().toISOString(),
    record: (member, args) => void calls.push({ member, args }),
  };
}

export function notModelled(member: string): Error {
  return new Error(`github-fake: ${member} is not modelled`);
}

/** The issue or pull request numbered `number`, or GitHub's 404 as an error. */
export function issueAt(store: FakeStore, number: number): FakeIssue {
  const issue = store.issues.get(number);
  if (!issue) throw new Error(`github-fake: #${number} does not exist (404)`);
  return issue;
}

export function urlOf(store: FakeStore, path: string): string {
  return `https://github.test/${store.repo.owner}/${store.repo.repo}/${path}`;
}

/** Adds a label the repository lacks, as GitHub does when an issue is given one. */
export function ensureRepoLabel(store: FakeStore, name: string): void {
  const key = name.toLowerCase();
  if (!store.labels.has(key)) store.labels.set(key, { name, color: "ededed", description: null });
}

/** Replaces an issue's label set, recording a timeline event per label added. */
export function replaceLabels(
  store: FakeStore,
  issue: FakeIssue,
  names: readonly string[],
  actor: string,
): string[] {
  const at = store.now();
  for (const name of names) {
    ensureRepoLabel(store, name);
    if (!issue.labels.has(name)) issue.timeline.push({ kind: "labeled", label: name, actor, createdAt: at });
  }
  issue.labels = new Set(names);
  issue.updatedAt = at;
  return [...issue.labels];
}

export function issueRecord(store: FakeStore, issue: FakeIssue): Issue {
  return {
    number: issue.number,
    nodeId: issue.nodeId,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    labels: [...issue.labels],
    milestone: issue.milestone,
    author: issue.author,
    isPullRequest: issue.pull !== null,
    url: urlOf(store, `${issue.pull ? "pull" : "issues"}/${issue.number}`),
  };
}

export function pullRecord(store: FakeStore, issue: FakeIssue): PullRequest | null {
  const pull = issue.pull;
  if (!pull) return null;
  return {
    number: issue.number,
    nodeId: issue.nodeId,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    merged: pull.merged,
    draft: pull.draft,
    head: { ...pull.head },
    base: { ...pull.base },
    author: issue.author,
    url: urlOf(store, `pull/${issue.number}`),
    fromFork: pull.fromFork,
  };
}

/** A comment as the gateway answers it, without the fake's bookkeeping. */
export function commentRecord(comment: FakeComment): Comment {
  const { issue: _issue, revisions: _revisions, ...record } = comment;
  return record;
}

export function commentsOf(store: FakeStore, number: number): FakeComment[] {
  return store.comments.filter((comment) => comment.issue === number);
}

/** Posts a comment as `author` (the gateway posts as the store's `self`). */
export function postComment(store: FakeStore, number: number, body: string, author: string): FakeComment {
  const issue = issueAt(store, number);
  const id = store.nextId();
  const at = store.now();
  const bot = author.endsWith("[bot]");
  const comment: FakeComment = {
    id,
    nodeId: `IC_${id}`,
    issue: number,
    body,
    author,
    authorType: bot ? "Bot" : "User",
    authorAssociation: bot
      ? "NONE"
      : (store.permissions.get(author) ?? "none") === "none"
        ? "NONE"
        : "MEMBER",
    createdAt: at,
    updatedAt: at,
    url: `${issueRecord(store, issue).url}#issuecomment-${id}`,
    revisions: [],
  };
  store.comments.push(comment);
  issue.updatedAt = at;
  return comment;
}

/** Edits a comment as `editor` (the gateway edits as the store's `self`), keeping its history as GitHub does. */
export function editComment(store: FakeStore, id: number, body: string, editor = store.self): FakeComment {
  const comment = store.comments.find((candidate) => candidate.id === id);
  if (!comment) throw new Error(`github-fake: comment ${id} does not exist (404)`);
  const at = store.now();
  if (comment.revisions.length === 0)
    comment.revisions.push({ editedAt: comment.createdAt, body: comment.body });
  comment.revisions.push({ editedAt: at, body, editor });
  comment.body = body;
  comment.updatedAt = at;
  issueAt(store, comment.issue).updatedAt = at;
  return comment;
}
