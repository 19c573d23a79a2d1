/** Pull request events on Locus PRs: merged → done; changes requested → iterate; opened → review (config). */
import type { PullRequest } from "../github/index.ts";
import { transition } from "../labels/status.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { AppContext } from "./app-context.ts";
import { dispatchOnce } from "./dispatch-once.ts";
import { restackAbove } from "./restack-on-merge.ts";

type PullRequestSlice = Pick<PullRequest, "number" | "head" | "state"> & {
  merged: boolean;
  base?: PullRequest["base"];
};

export function linkedIssue(pr: Pick<PullRequest, "head">): number | undefined {
  return issueOfBranch(pr.head.ref);
}

export async function onPullRequestMerged(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"done" | "restacked" | "ignored"> {
  const issueNumber = linkedIssue(pr);
  if (!pr.merged || issueNumber === undefined) return "ignored";
  const issue = await ctx.gateway.getIssue(issueNumber);
  if (!issue) return "ignored";
  const done = transition(issue.labels, "merge");
  if (done.ok && done.changed) await ctx.gateway.setLabels(issueNumber, done.labels);
  const restacked = await restackAbove(ctx, pr);
  return done.ok && done.changed ? "done" : restacked ? "restacked" : "ignored";
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
