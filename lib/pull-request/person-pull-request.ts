/**
 * A round (iterate or fix-ci) on a person's own pull request (`pr.humanPrs`): what differs from
 * a round on Locus's. There is no task issue, so the round's status lives in the PR's own status
 * comment and its replies, and no label moves; the commit credits whoever asked with a
 * `Co-authored-by` trailer; and the push only ever adds commits on top of the person's: never a
 * force, never a rebase of theirs, and when they pushed meanwhile the work is kept on a wip
 * branch instead.
 */
import type { GitClient } from "../git/git-client.ts";
import { pushRefusalOf } from "../git/push-refusal.ts";
import type { IssueWithComments, PullRequest } from "../github/index.ts";
import { coAuthorTrailer } from "../naming/commit.ts";
import type { PushOutcome } from "../stack/push-with-rebase.ts";
import type { ActionContext } from "../task/context.ts";
import { startReadOnlyStatus } from "../task/read-only-status.ts";
import type { PullRequestRound } from "./pull-request-round.ts";

/**
 * What the prompt shows in place of a task issue. The PR's title and description are not read
 * with their edit history, so they are left out rather than taken as they are now: the work
 * asked for is the round's own (`ask`: "Address the review feedback on it", "Make its failing CI
 * pass"), and the agent sees the branch's diff.
 */
export function personTaskIssue(pr: PullRequest, ask: string): IssueWithComments {
  return {
    number: pr.number,
    title: `Pull request #${pr.number}`,
    body: `A person opened this pull request; Locus did not. ${ask} by adding to their work, and keep their changes.`,
    state: "open",
    labels: [],
    milestone: null,
    author: pr.author,
    isPullRequest: true,
    url: pr.url,
    comments: [],
  };
}

/**
 * A person's PR has no task issue whose labels a round would move: its status comment is the
 * PR's own (where the app's dispatch put it), as a review's is, and no label changes.
 */
export async function personRound(
  ctx: Pick<ActionContext, "gateway" | "clock" | "run" | "mask">,
  prNumber: number,
  headline: string,
): Promise<PullRequestRound> {
  const status = await startReadOnlyStatus(ctx, prNumber, headline);
  return {
    progress: () => Promise.resolve(undefined),
    finish: async (report, endHeadline) => {
      await status.finish(endHeadline, report.costUsd);
      return { tasks: [report] };
    },
  };
}

/** The trailer crediting who asked; none when no person asked (or their id cannot be read). */
export async function requesterTrailers(
  ctx: Pick<ActionContext, "userId" | "log">,
  requester: string | undefined,
): Promise<string[]> {
  if (!requester || requester.endsWith("[bot]") || !ctx.userId) return [];
  try {
    return [coAuthorTrailer({ login: requester, id: await ctx.userId(requester) })];
  } catch (error) {
    ctx.log.warn(`Could not read @${requester}'s id for the Co-authored-by trailer: ${String(error)}`);
    return [];
  }
}

/**
 * Push the round's commit on top of the branch as it was read. The lease on `expect` with a
 * HEAD that descends from it lets the push only fast-forward; a branch that moved meanwhile
 * is left as the person made it, and the caller keeps the work on a wip branch.
 */
export async function pushOnTop(worktree: GitClient, branch: string, expect: string): Promise<PushOutcome> {
  if (!(await worktree.isAncestor(expect, "HEAD")))
    return { ok: false, why: "Locus's commit does not build on the branch as it was read" };
  const pushed = await worktree.push(branch, { expect });
  if (pushed.ok) return { ok: true, sha: (await worktree.revParse("HEAD")) ?? "" };
  if (pushed.rejected)
    return { ok: false, why: "its author pushed new commits, which Locus does not rebase onto" };
  const refusal = pushRefusalOf(pushed.message);
  return { ok: false, why: `the push failed (${pushed.message})`, ...(refusal ? { refusal } : {}) };
}
