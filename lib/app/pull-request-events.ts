/**
 * Pull request events on Locus PRs: merged → done; closed without merging →
 * no status (with a comment: a sprint must not stack on rejected work);
 * changes requested → iterate; opened → review (config).
 */
import type { PullRequest } from "../github/index.ts";
import { transition } from "../labels/status.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { AppContext } from "./app-context.ts";
import { dispatchOnce } from "./dispatch-once.ts";
import { refreshDashboard } from "./refresh-dashboard.ts";

type PullRequestSlice = Pick<PullRequest, "number" | "head" | "state"> & { merged: boolean };

export function linkedIssue(pr: Pick<PullRequest, "head">): number | undefined {
  return issueOfBranch(pr.head.ref);
}

export async function onPullRequestMerged(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"done" | "ignored"> {
  const issueNumber = linkedIssue(pr);
  if (!pr.merged || issueNumber === undefined) return "ignored";
  const issue = await ctx.gateway.getIssue(issueNumber);
  if (!issue) return "ignored";
  const done = transition(issue.labels, "merge");
  if (!done.ok || !done.changed) return "ignored";
  await ctx.gateway.setLabels(issueNumber, done.labels);
  await refreshDashboard(ctx, issue.milestone);
  return "done";
}

export async function onPullRequestClosedUnmerged(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"cleared" | "ignored"> {
  const issueNumber = linkedIssue(pr);
  if (pr.merged || issueNumber === undefined) return "ignored";
  const issue = await ctx.gateway.getIssue(issueNumber);
  if (!issue) return "ignored";
  const cleared = transition(issue.labels, "close-unmerged");
  if (!cleared.ok || !cleared.changed) return "ignored";
  await ctx.gateway.setLabels(issueNumber, cleared.labels);
  await ctx.gateway.createComment(
    issueNumber,
    `Pull request #${pr.number} was closed without merging, so this issue is no longer in review and its sprint no longer counts it as done. ` +
      `Its branch \`${pr.head.ref}\` is kept; comment \`/locus run\` to have Locus work on it again.`,
  );
  await refreshDashboard(ctx, issue.milestone);
  return "cleared";
}

export async function onChangesRequested(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"dispatched" | "duplicate" | "ignored"> {
  const issue = linkedIssue(pr);
  if (issue === undefined || pr.state !== "open" || !ctx.config.iterate.onChangesRequested) return "ignored";
  return dispatchOnce(
    ctx,
    { mode: "iterate", pr: pr.number },
    issue,
    `Addressing the requested changes on #${pr.number}…`,
  );
}

export async function onLocusPullRequestOpened(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"dispatched" | "duplicate" | "ignored"> {
  if (linkedIssue(pr) === undefined || !ctx.config.review.onOpen) return "ignored";
  return dispatchOnce(ctx, { mode: "review", pr: pr.number }, pr.number, "Reviewing…");
}
