/**
 * CI failed on a commit (a workflow run other than Locus's own, or another
 * app's check suite). When the commit is the head of an open PR Locus opened,
 * and config `ci.autoFix` allows, the app dispatches a fix-ci round for it —
 * unless that head had one already, or `ci.maxAttempts` rounds ran in a row
 * without a human push or comment; then one comment says what is left and
 * Locus stops. The rounds are counted in the linked issue's status comment.
 */
import { NO_CI_FIX, decideAutoFix, manualFix } from "../ci/auto-fix-policy.ts";
import { isLocus } from "../github/locus-identity.ts";
import { isLocusAuthorEmail } from "../git/commit-identity.ts";
import { formatCiSource } from "../ci/ci-source.ts";
import { renderCiStillFails } from "../ci/fix-ci-comment.ts";
import { type PullRequest } from "../github/index.ts";
import { authorize } from "../trust/authorize.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce, readDeliveryRecord } from "../app/dispatch-once.ts";
import { advanceTask, statusTarget } from "../lifecycle/apply-effects.ts";
import { taskState } from "../lifecycle/lifecycle.ts";

export interface CiFailure {
  readonly source: { readonly kind: "run" | "suite"; readonly id: number };
  readonly conclusion: string | null;
  readonly headSha: string;
  readonly headBranch: string | null;
  /** Who authored the failing commit (its email), as the event's head commit says. */
  readonly headAuthorEmail: string | null;
  /** The workflow file of a run (`.github/workflows/ci.yml`). */
  readonly workflowPath?: string;
}

export type CiFailureOutcome =
  | "dispatched"
  | "duplicate"
  | "refused"
  | "same-head"
  | "stopped"
  | "ignored"
  | "not-a-locus-pr"
  | "stale-head";

/**
 * Whether someone with write access commented on the PR since Locus's last automatic round:
 * only a writer's word restarts the count, or anyone could keep paid rounds going.
 */
async function writerCommentedSince(
  ctx: AppContext,
  pr: number,
  since: string | undefined,
): Promise<boolean> {
  if (since === undefined) return false;
  // GitHub gives a comment's time, and takes `since`, in whole seconds (YYYY-MM-DDTHH:MM:SSZ:
  // docs.github.com/rest/issues/comments#list-issue-comments), so one made in the same second as the
  // round, after it, reads as earlier: the round's second counts as after it (at worst one more round).
  const from = new Date(Math.floor(Date.parse(since) / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const comments = await ctx.gateway.listIssueComments(pr, { since: from });
  for (const comment of comments) {
    if (Date.parse(comment.createdAt) < Date.parse(from)) continue;
    if ((await authorize(ctx, { login: comment.author, type: comment.authorType })).ok) return true;
  }
  return false;
}

/** The open PR Locus opened whose head is this commit, or why there is none. */
async function locusPullAt(
  ctx: AppContext,
  branch: string,
  sha: string,
): Promise<PullRequest | "not-a-locus-pr" | "stale-head"> {
  const pr = await ctx.gateway.findPullRequestByHead(branch);
  if (!pr || !isLocus(ctx.selfLogins, pr.author)) return "not-a-locus-pr";
  return pr.head.sha === sha ? pr : "stale-head";
}

export async function onCiFailure(ctx: AppContext, failure: CiFailure): Promise<CiFailureOutcome> {
  if (failure.conclusion !== "failure" || !ctx.config.ci.autoFix) return "ignored";
  if (failure.workflowPath === `.github/workflows/${ctx.config.workflow}`) return "ignored";
  const issue = failure.headBranch ? issueOfBranch(failure.headBranch) : undefined;
  if (issue === undefined || !failure.headBranch) return "not-a-locus-pr";
  const pr = await locusPullAt(ctx, failure.headBranch, failure.headSha);
  if (typeof pr === "string") return pr;

  const record = await readDeliveryRecord(ctx, issue);
  if (record.seen) return "duplicate";
  const state = record.state.ci ?? NO_CI_FIX;
  const humanPushed =
    failure.headAuthorEmail !== null &&
    !isLocusAuthorEmail(ctx.selfLogins, ctx.config.commit, failure.headAuthorEmail);
  const humanCommented = !humanPushed && (await writerCommentedSince(ctx, pr.number, state.lastAt));
  const decision = decideAutoFix(state, {
    headSha: failure.headSha,
    humanActed: humanPushed || humanCommented,
    maxAttempts: ctx.config.ci.maxAttempts,
    at: ctx.now().toISOString(),
  });
  if (decision.action === "skip") return "same-head";
  if (decision.action === "stop") {
    if (decision.notify)
      await ctx.gateway.createComment(
        pr.number,
        await whatIsLeft(ctx.gateway, failure, decision.next.streak),
      );
    await advanceTask(statusTarget(ctx.gateway, { number: issue }, record), taskState([], record.state), {
      kind: "ci-fix-stopped",
      headline: `CI still fails on PR #${pr.number}; Locus stopped fixing it.`,
      ci: decision.next,
    });
    return "stopped";
  }
  return dispatchOnce(
    ctx,
    { mode: "fix-ci", pr: pr.number, command: formatCiSource(failure.source) },
    issue,
    `Fixing the CI failure on PR #${pr.number}…`,
    record,
    { ci: decision.next },
  );
}

async function whatIsLeft(
  gateway: Pick<AppContext["gateway"], "ci">,
  failure: CiFailure,
  rounds: number,
): Promise<string> {
  const checks = await gateway.ci.failedChecks(failure.source);
  return renderCiStillFails(
    failure.headSha,
    rounds,
    checks.map((check) => check.name),
  );
}

/**
 * `/locus fix-ci` on a Locus PR, or with `pr.humanPrs` on a person's (then `issue` is the PR itself,
 * where its status lives): a round now, whatever the automatic count says.
 */
export async function fixCiCommand(ctx: AppContext, pr: PullRequest, issue: number): Promise<void> {
  const record = await readDeliveryRecord(ctx, issue);
  const state = manualFix(record.state.ci ?? NO_CI_FIX, pr.head.sha, ctx.now().toISOString());
  await dispatchOnce(
    ctx,
    { mode: "fix-ci", pr: pr.number },
    issue,
    `Fixing the CI failure on PR #${pr.number}…`,
    { comment: record.comment, state: { ...record.state, ci: state } },
  );
}
