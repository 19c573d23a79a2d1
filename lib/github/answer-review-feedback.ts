/**
 * The answer to an iterate round: a reply in each addressed review thread,
 * the thread resolved when asked, and one comment on the PR — all in one
 * GraphQL request. GitHub runs a document's mutations one after another, in
 * order, so each reply lands before its thread is resolved. When GitHub fails
 * on the request, it may have run all of it, some or none: the gateway looks
 * at the threads and the PR and sends again only what is missing.
 */
import { z } from "zod";
import { isLandedComment } from "./comments.ts";
import type { Transport } from "./transport-types.ts";
import type { GitHubGateway, ThreadReply } from "./types.ts";

type AnswerOps = Pick<GitHubGateway, "answerReviewFeedback">;

/** What is still to be sent for one thread. */
type ThreadWork = { reply: boolean; resolve: boolean };

function mutationText(threads: readonly ThreadWork[], comment: boolean): string {
  const variables: string[] = [];
  const fields: string[] = [];
  threads.forEach((work, index) => {
    if (work.reply || work.resolve) variables.push(`$thread${index}: ID!`);
    if (work.reply) {
      variables.push(`$reply${index}: String!`);
      fields.push(
        `reply${index}: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $thread${index}, body: $reply${index} }) { comment { id } }`,
      );
    }
    if (work.resolve)
      fields.push(
        `resolve${index}: resolveReviewThread(input: { threadId: $thread${index} }) { thread { id isResolved } }`,
      );
  });
  if (comment) {
    variables.unshift("$subject: ID!", "$body: String!");
    fields.push(
      "comment: addComment(input: { subjectId: $subject, body: $body }) { commentEdge { node { id } } }",
    );
  }
  return `mutation AnswerReviewFeedback(${variables.join(", ")}) {\n  ${fields.join("\n  ")}\n}\n`;
}

/** The mutation for these replies; its text depends only on how many threads there are and which resolve. */
export function answerReviewFeedbackMutation(replies: readonly Pick<ThreadReply, "resolve">[]): string {
  return mutationText(
    replies.map((reply) => ({ reply: true, resolve: reply.resolve })),
    true,
  );
}

/** The threads and the PR (or issue) as they stand: the token's own newest comments on each. */
export const ANSWER_LANDED_QUERY = /* GraphQL */ `
  query AnswerReviewFeedbackLanded($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on PullRequestReviewThread {
        isResolved
        comments(last: 100) {
          nodes {
            ...LandedAnswer
          }
        }
      }
      ... on PullRequest {
        comments(last: 100) {
          nodes {
            ...LandedAnswer
          }
        }
      }
      ... on Issue {
        comments(last: 100) {
          nodes {
            ...LandedAnswer
          }
        }
      }
    }
  }
  fragment LandedAnswer on Comment {
    body
    createdAt
    viewerDidAuthor
  }
`;

const landedCommentsSchema = z
  .object({
    nodes: z.array(
      z.object({ body: z.string(), createdAt: z.string(), viewerDidAuthor: z.boolean() }).nullable(),
    ),
  })
  .transform((c) => c.nodes.flatMap((node) => (node ? [node] : [])));

const answerLandedSchema = z.object({
  nodes: z.array(
    z.object({ isResolved: z.boolean().optional(), comments: landedCommentsSchema.optional() }).nullable(),
  ),
});

export function answerReviewFeedbackOps(t: Transport): AnswerOps {
  return {
    async answerReviewFeedback(replies, comment) {
      // What is still to be sent: everything, until a look after a failure finds some of it.
      const work = replies.map((reply) => ({ ...reply, reply: true }));
      let commentMissing = true;
      await t.create({
        what: `answer to ${replies.length} review thread(s)`,
        async send(once) {
          const variables: Record<string, string> = commentMissing
            ? { subject: comment.subjectId, body: comment.body }
            : {};
          work.forEach((left, index) => {
            if (left.reply || left.resolve) variables[`thread${index}`] = left.threadId;
            if (left.reply) variables[`reply${index}`] = left.body;
          });
          await once.graphql(
            "AnswerReviewFeedback",
            mutationText(work, commentMissing),
            variables,
            z.unknown(),
          );
          return true;
        },
        // Marks off what GitHub already has; done when nothing is left.
        async landed(since) {
          const read = await t.graphql(
            "AnswerReviewFeedbackLanded",
            ANSWER_LANDED_QUERY,
            { ids: [...work.map((left) => left.threadId), comment.subjectId] },
            answerLandedSchema,
          );
          work.forEach((left, index) => {
            const thread = read.nodes[index];
            if (thread?.comments?.some((c) => isLandedComment(c, left.body, since))) left.reply = false;
            if (thread?.isResolved) left.resolve = false;
          });
          const subject = read.nodes[work.length];
          if (subject?.comments?.some((c) => isLandedComment(c, comment.body, since))) commentMissing = false;
          return commentMissing || work.some((left) => left.reply || left.resolve) ? null : true;
        },
      });
    },
  };
}
