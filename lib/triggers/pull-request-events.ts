/**
 * Pull request events on Locus PRs: merged → done; closed without merging →
 * no status (with a comment: a sprint must not stack on rejected work);
 * changes requested → iterate; opened → review (config).
 */
import { type PullRequest } from "../github/index.ts";
import { isLocus } from "../github/locus-identity.ts";
import { issueOfBranch } from "../naming/branches.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce, type DispatchOutcome } from "../app/dispatch-once.ts";
import { refreshDashboard } from "./refresh-dashboard.ts";
import { restackAbove } from "./restack-on-merge.ts";

type PullRequestSlice = Pick<PullRequest, "number" | "head" | "state"> & {
  merged: boolean;
  /** Absent where the event does not matter for merges (reviews). */
  base?: PullRequest["base"];
};

function linkedIssue(pr: Pick<PullRequest, "head">): number | undefined {
  return issueOfBranch(pr.head.ref);
}

export async function onPullRequestMerged(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"done" | "restacked" | "ignored"> {
  const issueNumber = linkedIssue(pr);
  if (!pr.merged || issueNumber === undefined) return "ignored";
  // A stacked PR merged into the task branch below it has not brought the work
  // into the repository's base: GitHub closes the issue only on a merge into
  // the default branch, and Locus marks it done only then too.
  // https://docs.github.com/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue
  if (pr.base?.ref !== ctx.defaultBranch) {
    ctx.log.info(
      `PR #${pr.number} merged into ${pr.base?.ref ?? "?"}, not ${ctx.defaultBranch}: #${issueNumber} not done`,
    );
    return "ignored";
  }
  const issue = await ctx.gateway.getIssue(issueNumber);
  if (!issue) return "ignored";
  const merged = step(taskState(issue.labels, EMPTY_STATE), { kind: "pr-merged" });
  const done = !("refused" in merged) && merged.effects.length > 0;
  if (done) {
    // Only the labels: the status comment keeps what the Action last recorded.
    await applyEffects({ gateway: ctx.gateway, issue, mask: (text) => text }, merged.effects);
    await refreshDashboard(ctx, issue.milestone);
  }
  const restacked = await restackAbove(ctx, pr);
  return done ? "done" : restacked ? "restacked" : "ignored";
}

export async function onPullRequestClosedUnmerged(
  ctx: AppContext,
  pr: PullRequestSlice,
): Promise<"cleared" | "ignored"> {
  const issueNumber = linkedIssue(pr);
  if (pr.merged || issueNumber === undefined) return "ignored";
  const issue = await ctx.gateway.getIssue(issueNumber);
  if (!issue) return "ignored";
  const cleared = step(taskState(issue.labels, EMPTY_STATE), { kind: "pr-closed-unmerged" });
  if ("refused" in cleared || cleared.effects.length === 0) return "ignored";
  // Only the labels: the status comment keeps what the Action last recorded.
  await applyEffects({ gateway: ctx.gateway, issue, mask: (text) => text }, cleared.effects);
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
): Promise<DispatchOutcome | "ignored"> {
  const issue = linkedIssue(pr);
  if (issue === undefined || pr.state !== "open" || !ctx.config.iterate.onChangesRequested) return "ignored";
  return dispatchOnce(
    ctx,
    { mode: "iterate", pr: pr.number },
    issue,
    `Addressing the requested changes on #${pr.number}…`,
  );
}

/**
 * `review.onOpen` reviews only PRs Locus opened here: its identity opened it
 * and the head branch is in this repository. A branch name alone proves
 * nothing (anyone can push `locus/issue-1` to a fork and open a PR from it).
 */
export async function onLocusPullRequestOpened(
  ctx: AppContext,
  pr: PullRequestSlice & { author: string; sameRepository: boolean },
): Promise<DispatchOutcome | "ignored"> {
  if (linkedIssue(pr) === undefined || !ctx.config.review.onOpen) return "ignored";
  if (!isLocus(ctx.selfLogins, pr.author) || !pr.sameRepository) return "ignored";
  return dispatchOnce(ctx, { mode: "review", pr: pr.number }, pr.number, "Reviewing…");
}
