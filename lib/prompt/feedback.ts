/**
 * Which review feedback an iterate round addresses. Only what existed when the
 * run was triggered counts (an edit made later must not smuggle in new
 * instructions), Locus's own words are not feedback, and people without write
 * access are heard only when config allows it.
 */

export interface FeedbackComment {
  readonly author: string;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt?: string;
}

export interface ReviewThread {
  readonly id?: string;
  readonly isResolved: boolean;
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

export interface FeedbackPolicy {
  readonly triggeredAt: string;
  /** When the newest agent commit was made; feedback before it has been addressed. */
  readonly lastAgentCommitAt?: string;
  readonly selfLogins: readonly string[];
  readonly mayGiveFeedback: (login: string) => boolean;
}

export interface SelectedFeedback {
  readonly threads: readonly ReviewThread[];
  readonly reviews: readonly Review[];
  readonly comments: readonly FeedbackComment[];
}

const COMMAND_LINE = /^\s*\/locus\b/i;

export function selectFeedback(sources: FeedbackSources, policy: FeedbackPolicy): SelectedFeedback {
  const trigger = Date.parse(policy.triggeredAt);
  const since = policy.lastAgentCommitAt ? Date.parse(policy.lastAgentCommitAt) : Number.NEGATIVE_INFINITY;
  const self = new Set(policy.selfLogins.map((login) => login.toLowerCase()));

  const heard = (comment: FeedbackComment): boolean =>
    !self.has(comment.author.toLowerCase()) &&
    Date.parse(comment.createdAt) <= trigger &&
    Date.parse(comment.updatedAt ?? comment.createdAt) <= trigger &&
    policy.mayGiveFeedback(comment.author) &&
    comment.body.trim().length > 0;
  // Git and GitHub stamp whole seconds: feedback from the commit's own second
  // is kept, since dropping it would lose a reviewer's words.
  const recent = (comment: FeedbackComment): boolean => Date.parse(comment.createdAt) >= since;

  const threads = sources.threads
    .filter((thread) => !thread.isResolved)
    .map((thread) => ({ ...thread, comments: thread.comments.filter(heard) }))
    .filter((thread) => thread.comments.length > 0);
  const reviews = sources.reviews.filter(
    (review) => review.state !== "PENDING" && review.state !== "DISMISSED" && heard(review) && recent(review),
  );
  const comments = sources.comments.filter(
    (comment) => heard(comment) && recent(comment) && !COMMAND_LINE.test(comment.body),
  );
  return { threads, reviews, comments };
}

export function hasFeedback(feedback: SelectedFeedback, note: string): boolean {
  return (
    feedback.threads.length > 0 ||
    feedback.reviews.length > 0 ||
    feedback.comments.length > 0 ||
    note.trim().length > 0
  );
}
