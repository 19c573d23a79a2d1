/**
 * What an iterate round hears: the PR's unresolved threads, review verdicts
 * and conversation, minus Locus's own words, from authors who may steer it
 * (write access, unless the repository opts in to everyone). Apart from the
 * mode so the rule of who is heard reads on its own.
 */
import type { PullRequestFeedback } from "../github/index.ts";
import {
  feedbackAuthors,
  selectFeedback,
  type FeedbackSources,
  type FeedbackTiming,
  type SelectedFeedback,
} from "../prompt/feedback.ts";
import type { ActionContext } from "../task/context.ts";
import { isLocusComment } from "../task/prompt-issue.ts";
import { asReviewer, reviewThreads } from "./review-threads.ts";
import type { Writers } from "../trust/writers.ts";
import { commandActs, type TriggerAct } from "../trust/trigger-act.ts";

function feedbackSources(read: PullRequestFeedback, self: readonly string[]): FeedbackSources {
  return {
    threads: reviewThreads(read.threads, self),
    reviews: read.reviews.map((review) =>
      asReviewer(self, {
        author: review.author,
        body: review.body,
        state: review.state,
        createdAt: review.submittedAt ?? new Date(0).toISOString(),
        updatedAt: review.updatedAt,
      }),
    ),
    comments: read.comments.filter((comment) => !isLocusComment(comment.body)),
  };
}

/** The open feedback whose authors may be heard: one permission check per distinct author at most. */
export async function collectFeedback(
  ctx: Pick<ActionContext, "config">,
  writers: Writers,
  read: PullRequestFeedback,
  timing: FeedbackTiming,
): Promise<SelectedFeedback> {
  const sources = feedbackSources(read, timing.selfLogins);
  if (ctx.config.iterate.allowFeedbackFromNonCollaborators)
    return selectFeedback(sources, { ...timing, mayGiveFeedback: () => true });
  const trust = await writers.trustFor(feedbackAuthors(sources, timing));
  return selectFeedback(sources, { ...timing, mayGiveFeedback: trust.isWriter });
}

/**
 * What may have started a round: a `/locus iterate` comment, or a review requesting changes
 * (iterate.onChangesRequested); commandTrigger keeps the newest by a writer.
 */
export function iterateActs(read: PullRequestFeedback): TriggerAct[] {
  const requested = read.reviews.flatMap((review) =>
    review.state === "CHANGES_REQUESTED" && review.submittedAt !== null
      ? [{ actor: review.author, at: review.submittedAt, what: "requested changes" }]
      : [],
  );
  return [...commandActs(read.comments, ["iterate"]), ...requested];
}
