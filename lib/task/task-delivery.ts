/**
 * How a started task ends when its agent finished with work to show: one
 * commit (scratch files left out and named in the summary), a push that never
 * overwrites a branch someone else moved, the pull request, the wip branch
 * cleared, and the lifecycle marks the task in review.
 */
import type { RunResult } from "../agent/runner.ts";
import type { GitClient } from "../git/git-client.ts";
import { pushRefusalOf } from "../git/push-refusal.ts";
import { issueBranch, wipBranch } from "../naming/branches.ts";
import { taskCommitMessage } from "../naming/commit.ts";
import { deliverPullRequest } from "./deliver-pull-request.ts";
import { runPreReviewChecks, vulnerableStop } from "./pre-review-checks.ts";
import { leftOutNote, withheldNote } from "./scratch-files.ts";
import { failTask } from "./task-failure.ts";
import type { TaskOutcome } from "./task-plan.ts";
import { advance, reportHead, scratchIn, spentSoFar, type TaskSession } from "./task-session.ts";
import type { TaskStart } from "./task-start.ts";

export async function deliverTask(
  s: TaskSession,
  start: TaskStart,
  worktree: GitClient,
  finished: RunResult,
): Promise<TaskOutcome> {
  const { ctx, issue, plan } = s;
  const branch = issueBranch(issue.number);
  if (start.checkpoint) await worktree.resetSoft(start.deliverFrom);
  const { leaveOut: leftOut, listed } = await scratchIn(worktree, finished);
  const stage = await worktree.stageAll(leftOut, listed);
  if (stage.staged) await worktree.commit(taskCommitMessage(issue));
  // The summary says what stayed out, so nobody wonders where a generated file went.
  const result = {
    ...finished,
    summary: [finished.summary, leftOutNote(leftOut), withheldNote(stage.withheld)]
      .filter(Boolean)
      .join("\n\n"),
  };
  s.result = result;
  if (!(await worktree.differs(plan.parentRef, "HEAD"))) {
    return await failTask(s, "the agent made no change to the repository", { noChanges: true });
  }
  const pushed = await worktree.push(branch, { expect: start.remoteBranch });
  if (!pushed.ok) {
    const refusal = pushed.rejected ? undefined : pushRefusalOf(pushed.message);
    return await failTask(
      s,
      pushed.rejected
        ? `${branch} changed on GitHub while Locus worked on it, so Locus did not overwrite it`
        : refusal
          ? `GitHub refused the push of ${branch}: ${refusal.rules.join(" ")}`
          : `pushing ${branch} failed: ${pushed.message}`,
      refusal ? { pushRefusal: refusal } : {},
    );
  }
  const files = await worktree.diffStat(plan.parentRef, "HEAD");
  const checks = await runPreReviewChecks(ctx.gateway, plan.prBase, branch, files);
  const blocked = ctx.config.pr.blockOnVulnerable ? vulnerableStop(checks) : undefined;
  if (blocked) return await failTask(s, blocked);
  const pr = await deliverPullRequest(ctx, {
    issue,
    branch,
    prBase: plan.prBase,
    result,
    files,
    checks,
    branchExisted: start.remoteBranch !== "",
    ...(plan.stackedOn === undefined ? {} : { stackedOn: plan.stackedOn }),
  });
  if (start.remoteWip) await worktree.deleteRemoteBranch(wipBranch(issue.number), start.remoteWip);
  // The new PR's label, the issue's labels and the status comment: one moment, one request.
  await advance(
    s,
    {
      kind: "delivered",
      pr: pr.number,
      usd: result.costUsd,
      at: ctx.clock.now(),
      ...(pr.recordUrl === undefined ? {} : { recordUrl: pr.recordUrl }),
    },
    pr.labelWrite ? [pr.labelWrite] : [],
  );
  return {
    report: {
      ...reportHead(s),
      status: "succeeded",
      pr,
      ...spentSoFar(s, result),
      summary: ctx.mask(result.summary),
    },
    worktree,
    labels: s.task.labels,
    attempts: s.task.attempts,
  };
}
