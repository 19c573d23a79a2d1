/**
 * The read of an iterate round: the PR, its conversation, reviews and review
 * threads, the issue it closes with that issue's comments (the status comment
 * among them), every text with its edit history, when GitHub created the
 * workflow run and (with a daily cost cap) the day's spend, in one GraphQL
 * request. GitHub links closing keywords only for PRs into the default
 * branch, so a stacked sprint PR's issue is read by number in a second request.
 */
import { z } from "zod";
import { COMMENT_FRAGMENT, editHistoryFields, ISSUE_FRAGMENT } from "./task-fragments.ts";
import {
  actorSchema,
  commentNodeSchema,
  editable,
  historyOf,
  issueNodeSchema,
  present,
} from "./task-node-schemas.ts";
import {
  repositoryCommon,
  RUN,
  RUN_AND_SPEND,
  RUN_AND_SPEND_VARIABLES,
  runAndSpendOf,
  runAndSpendVariables,
  runSchema,
} from "./run-and-spend.ts";
import {
  ACTOR,
  FEEDBACK_EDITS,
  reviewThreadPager,
  THREAD_FIELDS,
  THREAD_PAGE,
  threadPageSchema,
} from "./review-thread-pages.ts";
import { taskIssueReader } from "./task-issue-reader.ts";
import type { Transport } from "./transport-types.ts";
import type { GitHubGateway } from "./types.ts";

/**
 * Issues the PR closes, read in full with it: the linked one is nearly always
 * the only one, and when it is not among them it is read by number.
 */
const CLOSING_ISSUES = 1;

const labelNames = z
  .object({ nodes: z.array(z.object({ name: z.string() }).nullable()) })
  .transform((l) => l.nodes.flatMap((label) => (label ? [label.name] : [])));

export const PULL_REQUEST_FEEDBACK_QUERY = /* GraphQL */ `
  query PullRequestFeedback($owner: String!, $name: String!, $number: Int!, ${RUN_AND_SPEND_VARIABLES}) {
    ${RUN}
    repository(owner: $owner, name: $name) {
      ${RUN_AND_SPEND}
      pullRequest(number: $number) {
        id number title body state merged isDraft url headRefName headRefOid baseRefName author ${ACTOR}
        labels(first: 100) { nodes { name } }
        comments(last: 100) { nodes { ...TaskComment } }
        reviews(last: 100) {
          nodes {
            databaseId state body submittedAt updatedAt authorAssociation author ${ACTOR} commit { oid }
            ${editHistoryFields(FEEDBACK_EDITS)}
          }
        }
        reviewThreads(first: ${THREAD_PAGE}) { ${THREAD_FIELDS} }
        closingIssuesReferences(first: ${CLOSING_ISSUES}) { nodes { ...TaskIssue } }
      }
    }
  }
  ${ISSUE_FRAGMENT}
  ${COMMENT_FRAGMENT}
`;

export const LINKED_ISSUE_QUERY = /* GraphQL */ `
  query LinkedIssue($owner: String!, $name: String!, $number: Int!) {
    repository(owner: $owner, name: $name) {
      issue(number: $number) {
        ...TaskIssue
      }
    }
  }
  ${ISSUE_FRAGMENT}
  ${COMMENT_FRAGMENT}
`;

const feedbackSchema = z.object({
  run: runSchema,
  repository: z.object({
    ...repositoryCommon,
    pullRequest: z
      .object({
        id: z.string(),
        number: z.number(),
        title: z.string(),
        body: z.string(),
        state: z.enum(["OPEN", "CLOSED", "MERGED"]),
        merged: z.boolean(),
        isDraft: z.boolean(),
        url: z.string(),
        headRefName: z.string(),
        headRefOid: z.string(),
        baseRefName: z.string(),
        author: actorSchema,
        labels: labelNames,
        comments: z.object({ nodes: z.array(commentNodeSchema.nullable()) }),
        reviews: z.object({
          nodes: z.array(
            z.object({
              databaseId: z.number(),
              state: z.enum(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED", "PENDING"]),
              body: z.string(),
              submittedAt: z.string().nullable(),
              updatedAt: z.string(),
              authorAssociation: z.string(),
              author: actorSchema,
              commit: z.object({ oid: z.string() }).nullable(),
              ...editable,
            }),
          ),
        }),
        reviewThreads: threadPageSchema,
        closingIssuesReferences: z.object({ nodes: z.array(issueNodeSchema) }).nullable(),
      })
      .nullable(),
  }),
});

const linkedIssueSchema = z.object({ repository: z.object({ issue: issueNodeSchema.nullable() }) });

type PullFeedbackOps = Pick<GitHubGateway, "getPullRequestFeedback">;

/** GitHub answers a number that names nothing with a NOT_FOUND error, not with null. */
function isNotFound(error: unknown): boolean {
  const errors = (error as { cause?: { errors?: unknown } }).cause?.errors;
  return Array.isArray(errors) && errors.some((e: { type?: unknown }) => e.type === "NOT_FOUND");
}

export function pullFeedbackOps(t: Transport): PullFeedbackOps {
  const repo = { owner: t.repo.owner, name: t.repo.repo };
  const taskIssue = taskIssueReader(t);
  const { allThreads, allThreadComments } = reviewThreadPager(t);

  async function issueByNumber(number: number) {
    try {
      const data = await t.graphql("LinkedIssue", LINKED_ISSUE_QUERY, { ...repo, number }, linkedIssueSchema);
      return data.repository.issue;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  return {
    async getPullRequestFeedback(number, options) {
      let data: z.infer<typeof feedbackSchema>;
      try {
        data = await t.graphql(
          "PullRequestFeedback",
          PULL_REQUEST_FEEDBACK_QUERY,
          { ...repo, number, ...runAndSpendVariables(options) },
          feedbackSchema,
        );
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      const pr = data.repository.pullRequest;
      if (!pr) return null;
      const linked = options.linkedIssue(pr.headRefName);
      const closing = (pr.closingIssuesReferences?.nodes ?? []).find((issue) => issue.number === linked);
      const linkedNode = linked === undefined ? null : (closing ?? (await issueByNumber(linked)));
      return {
        ...runAndSpendOf(t, data, options.spendSince),
        pr: {
          nodeId: pr.id,
          number: pr.number,
          title: pr.title,
          body: pr.body,
          state: pr.state === "OPEN" ? "open" : "closed",
          merged: pr.merged,
          draft: pr.isDraft,
          head: { ref: pr.headRefName, sha: pr.headRefOid },
          base: { ref: pr.baseRefName },
          author: pr.author,
          url: pr.url,
          labels: pr.labels,
        },
        comments: present(pr.comments.nodes),
        reviews: pr.reviews.nodes.map((review) => ({
          id: review.databaseId,
          state: review.state,
          body: review.body,
          author: review.author,
          authorAssociation: review.authorAssociation,
          submittedAt: review.submittedAt,
          updatedAt: review.updatedAt,
          commitId: review.commit?.oid ?? null,
          history: historyOf(review),
        })),
        threads: await Promise.all(
          (await allThreads(pr.number, pr.reviewThreads)).map(async (thread) => ({
            id: thread.id,
            isResolved: thread.isResolved,
            isOutdated: thread.isOutdated,
            path: thread.path,
            line: thread.line,
            comments: (await allThreadComments(thread.id, thread.comments)).map((comment) => ({
              author: comment.author,
              body: comment.body,
              createdAt: comment.createdAt,
              updatedAt: comment.updatedAt,
              diffHunk: comment.diffHunk,
              history: historyOf(comment),
            })),
          })),
        ),
        linkedIssue: linkedNode ? await taskIssue(linkedNode) : null,
      };
    },
  };
}
