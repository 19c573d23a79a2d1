/**
 * The first read of every mode that works on a pull request (iterate, fix-ci, rebase): the PR
 * with its feedback and linked issue, refused when it is not open or is not one Locus opened
 * on a `locus/issue-<N>` branch (said on the PR, so whoever asked knows why nothing happened).
 */
import type { CommentPort, PullRequestFeedback, PullRequestPort } from "../github/index.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { ActionContext } from "../task/context.ts";
import { firstReadOptions } from "../task/task-read-context.ts";
import type { ModeResult } from "../task/task-report.ts";

export type LocusPullRequestRead =
  | { readonly ok: false; readonly result: ModeResult }
  | { readonly ok: true; readonly read: PullRequestFeedback; readonly issueNumber: number };

/** `onlyOwn` finishes the refusal: "Locus iterates only on its own." */
export async function readLocusPullRequest(
  ctx: Pick<ActionContext, "config" | "run" | "clock"> & {
    readonly gateway: Pick<PullRequestPort, "getPullRequestFeedback"> & Pick<CommentPort, "createComment">;
  },
  prNumber: number,
  onlyOwn: string,
): Promise<LocusPullRequestRead> {
  const read = await ctx.gateway.getPullRequestFeedback(prNumber, {
    ...firstReadOptions(ctx),
    linkedIssue: issueOfBranch,
  });
  if (!read || read.pr.state !== "open" || read.pr.merged)
    return { ok: false, result: { tasks: [], note: `PR #${prNumber} is not open.` } };
  const issueNumber = issueOfBranch(read.pr.head.ref);
  if (issueNumber === undefined || !read.pr.labels.includes(MANAGED_LABEL)) {
    const note = `PR #${prNumber} is not a Locus pull request; ${onlyOwn}`;
    await ctx.gateway.createComment(prNumber, note);
    return { ok: false, result: { tasks: [], note } };
  }
  return { ok: true, read, issueNumber };
}
