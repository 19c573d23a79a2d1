/** Pull request events on Locus PRs: merged, changes requested, opened. */
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { authorize } from "../../lib/trust/authorize.ts";
import { isLocus } from "../../lib/github/locus-identity.ts";
import {
  onChangesRequested,
  onLocusPullRequestOpened,
  onPullRequestClosedUnmerged,
  onPullRequestMerged,
} from "../../lib/triggers/pull-request-events.ts";

function slice(pr: {
  number: number;
  head: { ref: string; sha: string };
  base: { ref: string };
  state: string;
  merged?: boolean | null;
}) {
  return {
    number: pr.number,
    head: pr.head,
    base: { ref: pr.base.ref },
    state: pr.state === "open" ? ("open" as const) : ("closed" as const),
    merged: pr.merged === true,
  };
}

export async function onPullRequestClosed(
  ctx: AppContext,
  context: Context<"pull_request.closed">,
): Promise<void> {
  const author = context.payload.pull_request.user.login;
  // A bot's PR on a Locus branch is not enough: only the PRs Locus opened move their issue.
  if (!isLocus(ctx.selfLogins, author)) {
    ctx.log.debug(
      `PR #${context.payload.pull_request.number} closed, opened by ${author}, not Locus: ignored`,
    );
    return;
  }
  const pr = slice(context.payload.pull_request);
  const outcome = pr.merged ? await onPullRequestMerged(ctx, pr) : await onPullRequestClosedUnmerged(ctx, pr);
  ctx.log.debug(`PR #${context.payload.pull_request.number} closed: ${outcome}`);
}

export async function onPullRequestOpened(
  ctx: AppContext,
  context: Context<"pull_request.opened">,
): Promise<void> {
  // Locus opens its PRs itself: this is the one event of its own it acts on.
  const { pull_request: pr, repository } = context.payload;
  const outcome = await onLocusPullRequestOpened(ctx, {
    ...slice(pr),
    author: pr.user.login,
    sameRepository: pr.head.repo?.full_name === repository.full_name,
  });
  ctx.log.debug(`PR #${context.payload.pull_request.number} opened: ${outcome}`);
}

export async function onReviewSubmitted(
  ctx: AppContext,
  context: Context<"pull_request_review.submitted">,
): Promise<void> {
  const { review, pull_request: pr } = context.payload;
  if (!review.user) return;
  const access = await authorize(ctx, { login: review.user.login, type: review.user.type ?? "User" });
  if (!access.ok) {
    ctx.log.debug(`review on #${pr.number} ignored: ${access.reason}`);
    return;
  }
  await onChangesRequested(ctx, slice(pr));
}
