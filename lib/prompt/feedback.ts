/**
 * Which review feedback an iterate round addresses. Only what existed when the
 * run was triggered counts (an edit made later must not smuggle in new
 * instructions), Locus's own words are not feedback, and people without write
 * access are heard only when config allows it.
 */
import { isLocus } from "../github/locus-identity.ts";

export interface FeedbackComment {
  readonly author: string;
  readonly body: string;
  readonly createdAt: string;
  /** When it was last changed; an edit after the trigger silences it. */
  readonly updatedAt?: string;
}

export interface ReviewThread {
  /** The thread's node id, which replying and resolving take. */
  readonly id: string;
  /** Resolved on GitHub, or settled because Locus had the last word in it. */
  readonly isResolved: boolean;
  /** A later push changed the line the thread is on. */
  readonly isOutdated: boolean;
  readonly path: string;
  readonly line: number | null;
  readonly diffHunk: string;
  readonly comments: readonly FeedbackComment[];
}

export interface Review extends FeedbackComment {
  readonly state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
}

export interface FeedbackSources {
  readonly threads: readonly ReviewThread[];
  readonly reviews: readonly Review[];
  readonly comments: readonly FeedbackComment[];
}

export interface FeedbackTiming {
  readonly triggeredAt: string;
  /** When the newest agent commit was made; feedback before it has been addressed. */
  readonly lastAgentCommitAt?: string;
  readonly selfLogins: readonly string[];
}

export interface FeedbackPolicy extends FeedbackTiming {
  readonly mayGiveFeedback: (login: string) => boolean;
}

export type SelectedFeedback = FeedbackSources;

const COMMAND_LINE = /^\s*\/locus\b/i;

/** Everything that would be heard if its author may give feedback. */
function openFeedback(sources: FeedbackSources, timing: FeedbackTiming): SelectedFeedback {
  const trigger = Date.parse(timing.triggeredAt);
  const since = timing.lastAgentCommitAt ? Date.parse(timing.lastAgentCommitAt) : Number.NEGATIVE_INFINITY;

  const heard = (comment: FeedbackComment): boolean =>
    !isLocus(timing.selfLogins, comment.author) &&
    Date.parse(comment.createdAt) <= trigger &&
    Date.parse(comment.updatedAt ?? comment.createdAt) <= trigger &&
    comment.body.trim().length > 0;
  // Git and GitHub stamp whole seconds: feedback from the commit's own second
  // is kept, since dropping it would lose a reviewer's words.
  const recent = (comment: FeedbackComment): boolean => Date.parse(comment.createdAt) >= since;

  return {
    threads: sources.threads
      .filter((thread) => !thread.isResolved)
      .map((thread) => ({ ...thread, comments: thread.comments.filter(heard) }))
      .filter((thread) => thread.comments.length > 0),
    reviews: sources.reviews.filter(
      (review) =>
        review.state !== "PENDING" && review.state !== "DISMISSED" && heard(review) && recent(review),
    ),
    comments: sources.comments.filter(
      (comment) => heard(comment) && recent(comment) && !COMMAND_LINE.test(comment.body),
    ),
  };
}

/** The distinct authors whose permission decides what is heard: nobody else needs a permission check. */
export function feedbackAuthors(sources: FeedbackSources, timing: FeedbackTiming): string[] {
  const open = openFeedback(sources, timing);
  const items = [...open.threads.flatMap((thread) => thread.comments), ...open.reviews, ...open.comments];
  const authors = new Map<string, string>();
  for (const item of items) authors.set(item.author.toLowerCase(), item.author);
  return [...authors.values()];
}

export function selectFeedback(sources: FeedbackSources, policy: FeedbackPolicy): SelectedFeedback {
  const open = openFeedback(sources, policy);
  const allowed = (item: FeedbackComment): boolean => policy.mayGiveFeedback(item.author);
  return {
    threads: open.threads
      .map((thread) => ({ ...thread, comments: thread.comments.filter(allowed) }))
      .filter((thread) => thread.comments.length > 0),
    reviews: open.reviews.filter(allowed),
    comments: open.comments.filter(allowed),
  };
}

export function hasFeedback(feedback: SelectedFeedback, note: string): boolean {
  return (
    feedback.threads.length > 0 ||
    feedback.reviews.length > 0 ||
    feedback.comments.length > 0 ||
    note.trim().length > 0
  );
}
