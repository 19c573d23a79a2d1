// What the gateway reads and writes of a pull request's review: review
// comments, reviews, review threads, the whole feedback an iterate round reads,
// and the replies and reviews Locus posts. Types only, apart from types.ts so
// the review vocabulary reads in one file.
import type { PullRequest } from "./records.ts";
import type { EditHistory, RunAndSpend, TaskComment, TaskIssue } from "./task-types.ts";

export type ReviewComment = {
  id: number;
  body: string;
  path: string;
  line: number | null;
  side: "LEFT" | "RIGHT" | null;
  diffHunk: string;
  author: string;
  authorAssociation: string;
  createdAt: string;
  updatedAt: string;
  inReplyToId: number | null;
  reviewId: number | null;
};

export type ReviewState = "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";

export type Review = {
  id: number;
  state: ReviewState;
  body: string;
  author: string;
  authorAssociation: string;
  submittedAt: string | null;
  commitId: string | null;
};

/** A comment in a review thread, as GraphQL gives it. */
export type ThreadComment = {
  author: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  diffHunk: string;
};

/** A line (or file) conversation on a PR; `id` is its node id, which resolving takes. */
export type PullRequestReviewThread = {
  id: string;
  isResolved: boolean;
  isOutdated: boolean;
  path: string;
  line: number | null;
  comments: ThreadComment[];
};

/**
 * Everything an iterate round reads, from one GraphQL request (two when the PR
 * does not close its issue); every text comes with its edit history.
 */
export type PullRequestFeedback = RunAndSpend & {
  pr: PullRequest & { nodeId: string; labels: string[] };
  /** The PR's conversation, newest 100. */
  comments: TaskComment[];
  /** Reviews with `updatedAt`, so an edited verdict can be told apart. Newest 100. */
  reviews: (Review & { updatedAt: string; history: EditHistory })[];
  /** The first 100 threads. */
  threads: (Omit<PullRequestReviewThread, "comments"> & {
    comments: (ThreadComment & { history: EditHistory })[];
  })[];
  /** The issue `linkedIssue(headRef)` named, with all its comments; null when it names none or it does not exist. */
  linkedIssue: TaskIssue | null;
};

/** A reply posted in a review thread, and whether to resolve the thread after it. */
export type ThreadReply = { threadId: string; body: string; resolve: boolean };

export type ReviewEvent = "APPROVE" | "REQUEST_CHANGES" | "COMMENT";

export type NewReview = {
  event: ReviewEvent;
  body: string;
  /** The commit the review reads (`commit_id`): line anchors stay on it when the branch moves on. */
  commitId?: string;
  comments?: { path: string; line: number; side?: "LEFT" | "RIGHT"; body: string }[];
};
