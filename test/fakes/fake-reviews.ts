/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's pull request reviews (github-fake.ts): a review's line comments
 * open review threads, a reply lands in its thread, a resolved thread says who
 * resolved it, and an iterate round's one read (`getPullRequestFeedback`)
 * gives the PR, its conversation, reviews, threads and linked issue with each
 * text's edit history, as the GraphQL read does. Locus writes as the store's
 * `self`; a person's review or reply is seeded with `submitReview` and
 * `replyInThread` under their login.
 */
import type { NewReview, PullRequestPort, Review, ReviewState } from "../../lib/github/index.ts";
import { MANAGED_LABEL } from "../../lib/labels/schema.ts";
import type { FakeReview, FakeReviewComment, FakeThread } from "./fake-review-records.ts";
import { history, runAndSpend, taskIssue } from "./fake-task-reads.ts";
import { issueAt, postComment, pullRecord, type FakePull, type FakeStore } from "./github-fake-store.ts";

type ReviewMembers = Pick<
  PullRequestPort,
  "listReviews" | "listReviewComments" | "getPullRequestFeedback" | "answerReviewFeedback" | "createReview"
>;

const REVIEW_STATES: Record<string, ReviewState> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

function pullAt(store: FakeStore, number: number): FakePull {
  const pull = issueAt(store, number).pull;
  if (!pull) throw new Error(`github-fake: #${number} is not a pull request (404)`);
  return pull;
}

function association(store: FakeStore, author: string): string {
  if (author.endsWith("[bot]")) return "NONE";
  return (store.permissions.get(author) ?? "none") === "none" ? "NONE" : "MEMBER";
}

function lineComment(
  store: FakeStore,
  fields: Pick<FakeReviewComment, "body" | "path" | "line" | "author" | "inReplyToId" | "reviewId">,
): FakeReviewComment {
  const id = store.nextId();
  const at = store.now();
  return {
    ...fields,
    id,
    nodeId: `PRRC_${id}`,
    side: fields.line === null ? null : "RIGHT",
    diffHunk: `@@ -1,3 +1,3 @@ ${fields.path}`,
    authorAssociation: association(store, fields.author),
    createdAt: at,
    updatedAt: at,
    revisions: [],
  };
}

/** A review as `author` submitted it: each line comment opens a thread. */
export function submitReview(store: FakeStore, number: number, review: NewReview, author: string): Review {
  const pull = pullAt(store, number);
  const at = store.now();
  const written: FakeReview = {
    id: store.nextId(),
    state: REVIEW_STATES[review.event] ?? "COMMENTED",
    body: review.body,
    author,
    authorAssociation: association(store, author),
    submittedAt: at,
    commitId: review.commitId ?? pull.head.sha,
    updatedAt: at,
    revisions: [],
  };
  pull.reviews.push(written);
  for (const comment of review.comments ?? []) {
    const root = lineComment(store, { ...comment, author, inReplyToId: null, reviewId: written.id });
    pull.threads.push({
      id: `PRRT_${root.id}`,
      isResolved: false,
      resolvedBy: null,
      isOutdated: false,
      path: comment.path,
      line: comment.line,
      comments: [root],
    });
  }
  issueAt(store, number).updatedAt = at;
  const { updatedAt: _updatedAt, revisions: _revisions, ...record } = written;
  return record;
}

/** The thread with node id `id`, on whichever pull request holds it; GraphQL's NOT_FOUND otherwise. */
export function threadAt(store: FakeStore, id: string): FakeThread {
  for (const issue of store.issues.values()) {
    const thread = issue.pull?.threads.find((candidate) => candidate.id === id);
    if (thread) return thread;
  }
  throw new Error(`github-fake: no review thread ${id} (NOT_FOUND)`);
}

/** A reply in a thread as `author`: GitHub files it under a new review of theirs, "COMMENTED". */
export function replyInThread(store: FakeStore, id: string, body: string, author: string): FakeReviewComment {
  const thread = threadAt(store, id);
  const root = thread.comments[0];
  const holder = [...store.issues.values()].find((issue) => issue.pull?.threads.includes(thread));
  const review = holder ? submitReview(store, holder.number, { event: "COMMENT", body: "" }, author) : null;
  const reply = lineComment(store, {
    body,
    path: thread.path,
    line: thread.line,
    author,
    inReplyToId: root?.id ?? null,
    reviewId: review?.id ?? null,
  });
  thread.comments.push(reply);
  return reply;
}

export function fakeReviews(store: FakeStore): ReviewMembers {
  return {
    async listReviewComments(number, opts = {}) {
      store.record("listReviewComments", [number, opts]);
      return pullAt(store, number)
        .threads.flatMap((thread) => thread.comments)
        .filter((comment) => opts.since === undefined || comment.updatedAt >= opts.since)
        .map(({ nodeId: _nodeId, revisions: _revisions, ...comment }) => comment);
    },
    async listReviews(number) {
      store.record("listReviews", [number]);
      return pullAt(store, number).reviews.map(
        ({ updatedAt: _at, revisions: _revisions, ...review }) => review,
      );
    },
    async getPullRequestFeedback(number, options) {
      store.record("getPullRequestFeedback", [number, options]);
      const issue = store.issues.get(number);
      const pr = issue ? pullRecord(store, issue) : null;
      if (!issue?.pull || !pr) return null;
      const { fromFork: _fromFork, ...graphPr } = pr;
      const linked = store.issues.get(options.linkedIssue(pr.head.ref) ?? 0);
      return {
        ...runAndSpend(store, { ...options, managedLabel: MANAGED_LABEL }),
        pr: { ...graphPr, nodeId: issue.nodeId, labels: [...issue.labels] },
        comments: taskIssue(store, issue).comments,
        reviews: issue.pull.reviews.map(({ revisions, ...review }) => ({
          ...review,
          history: history(review.submittedAt ?? review.updatedAt, revisions),
        })),
        threads: issue.pull.threads.map((thread) => ({
          id: thread.id,
          isResolved: thread.isResolved,
          isOutdated: thread.isOutdated,
          path: thread.path,
          line: thread.line,
          comments: thread.comments.map((comment) => ({
            author: comment.author,
            body: comment.body,
            createdAt: comment.createdAt,
            updatedAt: comment.updatedAt,
            diffHunk: comment.diffHunk,
            history: history(comment.createdAt, comment.revisions),
          })),
        })),
        linkedIssue: linked && !linked.pull ? taskIssue(store, linked) : null,
      };
    },
    async answerReviewFeedback(replies, comment) {
      store.record("answerReviewFeedback", [replies, comment]);
      // GitHub runs the document's mutations in order: each reply lands before its thread is resolved.
      for (const reply of replies) {
        replyInThread(store, reply.threadId, reply.body, store.self);
        if (!reply.resolve) continue;
        const thread = threadAt(store, reply.threadId);
        thread.isResolved = true;
        thread.resolvedBy = store.self;
      }
      const subject = [...store.issues.values()].find((issue) => issue.nodeId === comment.subjectId);
      if (!subject) throw new Error(`github-fake: no node ${comment.subjectId} to comment on (NOT_FOUND)`);
      postComment(store, subject.number, comment.body, store.self);
    },
    async createReview(number, review) {
      store.record("createReview", [number, review]);
      return submitReview(store, number, review, store.self);
    },
  };
}
