/**
 * Review threads and reviews as feedback. A thread is open while GitHub has
 * it unresolved and someone other than Locus had the last word: Locus replies
 * in every thread it addressed (and resolves it when config says so), so a
 * reviewer who answers again reopens it.
 */
import type { PullRequestReviewThread } from "../github/index.ts";
import type { ReviewThread } from "../prompt/feedback.ts";
import { isLocusReviewText } from "../review/review-comment.ts";
import { isLocus } from "../github/locus-identity.ts";
import { LOCUS_REVIEWER } from "../trust/self-logins.ts";

export function asReviewer<T extends { author: string; body: string }>(self: readonly string[], item: T): T {
  return isLocus(self, item.author) && isLocusReviewText(item.body)
    ? { ...item, author: LOCUS_REVIEWER }
    : item;
}

export function reviewThreads(
  threads: readonly PullRequestReviewThread[],
  self: readonly string[],
): ReviewThread[] {
  return threads.map((thread) => {
    const comments = thread.comments.map((comment) => asReviewer(self, comment));
    const last = comments.at(-1);
    return {
      id: thread.id,
      isResolved: thread.isResolved || (last !== undefined && isLocus(self, last.author)),
      isOutdated: thread.isOutdated,
      path: thread.path,
      line: thread.line,
      diffHunk: comments[0]?.diffHunk ?? "",
      comments: comments.map(({ author, body, createdAt, updatedAt }) => ({
        author,
        body,
        createdAt,
        updatedAt,
      })),
    };
  });
}
