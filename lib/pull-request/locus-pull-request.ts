/**
 * The first read of every mode that works on a pull request (iterate, fix-ci, rebase): the PR
 * with its feedback and linked issue, refused when it is not open or is not one Locus may work
 * on (said on the PR, so whoever asked knows why nothing happened). Locus's own PR is one it
 * opened on a `locus/issue-<N>` branch; a mode that can work on a person's PR (iterate or fix-ci,
 * with `pr.humanPrs`) passes `command` and gets one back when the rule of pull-request-owner.ts
 * allows it, checked here again from GitHub and the config at the trigger: the app's word that
 * dispatched the run is not trusted alone.
 */
import type { CommentPort, PullRequestFeedback, PullRequestPort } from "../github/index.ts";
import { isLocus } from "../github/locus-identity.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { ActionContext } from "../task/context.ts";
import { firstReadOptions } from "../task/task-read-context.ts";
import type { ModeResult } from "../task/task-report.ts";
import { selfLogins } from "../trust/self-logins.ts";
import { pullRequestOwner, type PullRequestCommandName } from "./pull-request-owner.ts";

export type LocusPullRequestRead =
  | { readonly ok: false; readonly result: ModeResult }
  | {
      readonly ok: true;
      readonly read: PullRequestFeedback;
      /** The linked task issue of Locus's own PR; absent on a person's PR. */
      readonly issueNumber: number;
      readonly owner: "locus" | "person";
    };

type ReadContext = Pick<ActionContext, "config" | "run" | "clock" | "identity"> & {
  readonly gateway: Pick<PullRequestPort, "getPullRequestFeedback" | "getPullRequest"> &
    Pick<CommentPort, "createComment">;
};

/**
 * `onlyOwn` finishes the refusal: "Locus iterates only on its own." `command`: the mode may work
 * on a person's PR in this repository when `pr.humanPrs` allows it.
 */
export async function readLocusPullRequest(
  ctx: ReadContext,
  prNumber: number,
  onlyOwn: string,
  command?: PullRequestCommandName,
): Promise<LocusPullRequestRead> {
  const read = await ctx.gateway.getPullRequestFeedback(prNumber, {
    ...firstReadOptions(ctx),
    linkedIssue: issueOfBranch,
  });
  if (!read || read.pr.state !== "open" || read.pr.merged)
    return { ok: false, result: { tasks: [], note: `PR #${prNumber} is not open.` } };
  const issueNumber = issueOfBranch(read.pr.head.ref);
  if (issueNumber !== undefined && read.pr.labels.includes(MANAGED_LABEL))
    return { ok: true, read, issueNumber, owner: "locus" };
  const refuse = async (note: string): Promise<LocusPullRequestRead> => {
    await ctx.gateway.createComment(prNumber, note);
    return { ok: false, result: { tasks: [], note } };
  };
  if (!command) return refuse(`PR #${prNumber} is not a Locus pull request; ${onlyOwn}`);
  // The REST read names the head repository: a fork's PR is told apart only there.
  const rest = await ctx.gateway.getPullRequest(prNumber);
  const owner = pullRequestOwner({
    command,
    openedByLocus: isLocus(selfLogins(ctx), read.pr.author),
    headRef: read.pr.head.ref,
    fromFork: rest === null || rest.fromFork !== false,
    humanPrs: ctx.config.pr.humanPrs,
  });
  if (owner.kind === "refused") return refuse(owner.reply);
  if (owner.kind === "locus" || isLocus(selfLogins(ctx), read.pr.author))
    // Locus's name on a PR without its label: not a task Locus keeps, and not a person's either.
    return refuse(`PR #${prNumber} is not a Locus pull request; ${onlyOwn}`);
  // The PR's own number stands for the task: issues and pull requests share one number space.
  return { ok: true, read, issueNumber: prNumber, owner: "person" };
}
