/**
 * The answer to an iterate round: a reply in each addressed review thread,
 * the thread resolved when asked, and one comment on the PR — all in one
 * GraphQL request. GitHub runs a document's mutations one after another, in
 * order, so each reply lands before its thread is resolved.
 */
import { z } from "zod";
import type { Transport } from "./transport.ts";
import type { GitHubGateway, ThreadReply } from "./types.ts";

type AnswerOps = Pick<GitHubGateway, "answerReviewFeedback">;

/** The mutation for these replies; its text depends only on how many threads there are and which resolve. */
export function answerReviewFeedbackMutation(replies: readonly Pick<ThreadReply, "resolve">[]): string {
  const variables = ["$subject: ID!", "$body: String!"];
  const fields: string[] = [];
  replies.forEach((reply, index) => {
    variables.push(`$thread${index}: ID!`, `$reply${index}: String!`);
    fields.push(
      `reply${index}: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $thread${index}, body: $reply${index} }) { comment { id } }`,
    );
    if (reply.resolve)
      fields.push(
        `resolve${index}: resolveReviewThread(input: { threadId: $thread${index} }) { thread { id isResolved } }`,
      );
  });
  fields.push(
    "comment: addComment(input: { subjectId: $subject, body: $body }) { commentEdge { node { id } } }",
  );
  return `mutation AnswerReviewFeedback(${variables.join(", ")}) {\n  ${fields.join("\n  ")}\n}\n`;
}

export function answerReviewFeedbackOps(t: Transport): AnswerOps {
  return {
    async answerReviewFeedback(replies, comment) {
      const variables: Record<string, string> = { subject: comment.subjectId, body: comment.body };
      replies.forEach((reply, index) => {
        variables[`thread${index}`] = reply.threadId;
        variables[`reply${index}`] = reply.body;
      });
      await t.graphql("AnswerReviewFeedback", answerReviewFeedbackMutation(replies), variables, z.unknown());
    },
  };
}
