/**
 * An iterate round's review threads, read with the PR a page at a time and
 * followed up when a page is full: more threads by the PR's number, more
 * comments of a thread by its id, 100 a request. Apart from the PR read
 * (pull-feedback.ts) because the paging is a concern of its own.
 */
import { z } from "zod";
import { editHistoryFields } from "./task-fragments.ts";
import { actorSchema, editable } from "./task-node-schemas.ts";
import type { Transport } from "./transport-types.ts";

export const ACTOR = "{ __typename login }";
/** Reviews and line comments are seldom edited more than a few times. */
export const FEEDBACK_EDITS = 20;
/**
 * A review thread's comments read with the PR: GitHub charges a connection
 * once per item of its parents, so each comment's edit history costs a request
 * per thread comment asked for. Threads are short; a full page is followed up
 * by the thread's id, 100 at a time.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call
 */
const THREAD_COMMENT_PAGE = 10;
/** Review threads read with the PR, each with its first comment page; more are paged 100 at a time. */
export const THREAD_PAGE = 20;
const THREAD_COMMENT_FIELDS = `body updatedAt diffHunk author ${ACTOR} ${editHistoryFields(FEEDBACK_EDITS)}`;
export const THREAD_FIELDS = `
  pageInfo { hasNextPage endCursor }
  nodes {
    id isResolved isOutdated path line
    comments(first: ${THREAD_COMMENT_PAGE}) {
      pageInfo { hasNextPage endCursor }
      nodes { ${THREAD_COMMENT_FIELDS} }
    }
  }`;

export const REVIEW_THREADS_QUERY = /* GraphQL */ `
  query ReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        reviewThreads(first: 100, after: $after) { ${THREAD_FIELDS} }
      }
    }
  }
`;

export const REVIEW_THREAD_COMMENTS_QUERY = /* GraphQL */ `
  query ReviewThreadComments($id: ID!, $after: String) {
    node(id: $id) {
      ... on PullRequestReviewThread {
        comments(first: 100, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { ${THREAD_COMMENT_FIELDS} }
        }
      }
    }
  }
`;

const threadCommentSchema = z.object({
  body: z.string(),
  updatedAt: z.string(),
  diffHunk: z.string(),
  author: actorSchema,
  ...editable,
});

const threadCommentPageSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  nodes: z.array(threadCommentSchema),
});

const threadCommentsSchema = z.object({
  node: z.object({ comments: threadCommentPageSchema.optional() }).nullable(),
});

export const threadPageSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  nodes: z.array(
    z.object({
      id: z.string(),
      isResolved: z.boolean(),
      isOutdated: z.boolean(),
      path: z.string(),
      line: z.number().nullable(),
      comments: threadCommentPageSchema,
    }),
  ),
});

const reviewThreadsSchema = z.object({
  repository: z.object({
    pullRequest: z.object({ reviewThreads: threadPageSchema }).nullable(),
  }),
});

/** Pages past the first of the PR's threads and of each thread's comments. */
export function reviewThreadPager(t: Transport) {
  const repo = { owner: t.repo.owner, name: t.repo.repo };

  /** A thread's comments past its first page (long threads are rare). */
  async function allThreadComments(id: string, first: z.infer<typeof threadCommentPageSchema>) {
    const comments = [...first.nodes];
    let page = first.pageInfo;
    while (page.hasNextPage && page.endCursor !== null) {
      const data = await t.graphql(
        "ReviewThreadComments",
        REVIEW_THREAD_COMMENTS_QUERY,
        { id, after: page.endCursor },
        threadCommentsSchema,
      );
      const next = data.node?.comments;
      if (!next) break;
      comments.push(...next.nodes);
      page = next.pageInfo;
    }
    return comments;
  }

  /** The PR's review threads past the first page (a PR with many threads). */
  async function allThreads(number: number, first: z.infer<typeof threadPageSchema>) {
    const threads = [...first.nodes];
    let page = first.pageInfo;
    while (page.hasNextPage && page.endCursor !== null) {
      const data = await t.graphql(
        "ReviewThreads",
        REVIEW_THREADS_QUERY,
        { ...repo, number, after: page.endCursor },
        reviewThreadsSchema,
      );
      const next = data.repository.pullRequest?.reviewThreads;
      if (!next) break;
      threads.push(...next.nodes);
      page = next.pageInfo;
    }
    return threads;
  }

  return { allThreads, allThreadComments };
}
