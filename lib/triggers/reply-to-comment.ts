/**
 * How the app answers a comment: one reply per comment, even when the
 * comment's event arrives again. A command that does work is exactly-once by
 * its own record (dispatch-once.ts, approve's issue markers), but a reply has
 * no record besides itself, so it carries a marker naming the comment it
 * answers (lib/status/reply-marker.ts). Only a redelivery this process asked
 * for (the delivery sweeper after a restart) pays one read to look for that
 * reply; a first delivery posts at once.
 */
import { type Comment } from "../github/index.ts";
import { isLocus } from "../github/locus-identity.ts";
import { repliedCommentId } from "../markers.ts";
import { renderReply } from "../status/reply-marker.ts";
import type { AppContext } from "../app/app-context.ts";

/** The comment a reply answers, as its `issue_comment` event shows it. */
export interface AnsweredComment {
  /** The issue or pull request it was written on. */
  readonly issue: number;
  readonly id: number;
  readonly createdAt: string;
}

export type ReplyOutcome = "posted" | "already-answered";

/**
 * Only Locus's own comments count as its replies, so a marker a person types
 * suppresses nothing. Even if it counted, it could only keep Locus from
 * answering the one comment it names, and only on a redelivery: harmless.
 */
function isReplyFromLocus(ctx: AppContext, comment: Comment, answered: AnsweredComment): boolean {
  return isLocus(ctx.selfLogins, comment.author) && repliedCommentId(comment.body) === answered.id;
}

export async function replyToComment(
  ctx: AppContext,
  answered: AnsweredComment,
  text: string,
): Promise<ReplyOutcome> {
  if (ctx.redeliveryRequested(ctx.delivery)) {
    // A reply is written after the comment it answers, so it was last updated no earlier.
    const later = await ctx.gateway.listIssueComments(answered.issue, { since: answered.createdAt });
    if (later.some((comment) => isReplyFromLocus(ctx, comment, answered))) {
      ctx.log.info(
        `comment ${answered.id} on #${answered.issue} was already answered; redelivery ${ctx.delivery} posts nothing`,
      );
      return "already-answered";
    }
  }
  await ctx.gateway.createComment(answered.issue, renderReply(answered.id, text));
  return "posted";
}
