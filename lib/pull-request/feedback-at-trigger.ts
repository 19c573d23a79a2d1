/**
 * An iterate round's feedback as it stood when the run was triggered: each
 * conversation comment, review and line comment with the text it had then
 * (recovered from its edit history), those written later left out, and those
 * edited later whose earlier text GitHub no longer holds withheld with the
 * reason, which the prompt states. Pure.
 */
import type { PullRequestFeedback } from "../github/index.ts";
import { commentsAtTrigger } from "../task/prompt-issue.ts";
import { itemAtTrigger } from "../trust/text-at-trigger.ts";

export interface FeedbackAtTrigger {
  readonly read: PullRequestFeedback;
  /** One line per item left out because its trigger-time text is lost. */
  readonly withheld: readonly string[];
}

export function feedbackAtTrigger(read: PullRequestFeedback, triggeredAt: Date): FeedbackAtTrigger {
  const withheld: string[] = [];
  const conversation = commentsAtTrigger(read.comments, triggeredAt);
  withheld.push(...conversation.withheld);

  const reviews = read.reviews.flatMap((review) => {
    // A pending review has no submission time; it is never feedback, so its text does not matter.
    const then = itemAtTrigger({ ...review, createdAt: review.submittedAt ?? review.updatedAt }, triggeredAt);
    if (then.kind === "withheld") withheld.push(`A review by @${review.author}: ${then.why}.`);
    return then.kind === "kept" ? [{ ...then.item, submittedAt: review.submittedAt }] : [];
  });

  const threads = read.threads.map((thread) => ({
    ...thread,
    comments: thread.comments.flatMap((comment) => {
      const then = itemAtTrigger(comment, triggeredAt);
      if (then.kind === "withheld") {
        withheld.push(`A line comment by @${comment.author} on ${thread.path}: ${then.why}.`);
      }
      return then.kind === "kept" ? [then.item] : [];
    }),
  }));

  return { read: { ...read, comments: conversation.comments, reviews, threads }, withheld };
}
