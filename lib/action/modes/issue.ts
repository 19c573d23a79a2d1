/**
 * Mode `issue`: each issue in its own worktree under `RUNNER_TEMP`, from the
 * base branch on `locus/issue-<N>`, at most `agent.maxParallel` at a time.
 * A worktree is removed after success and kept after a failure for the log.
 */
import { join } from "node:path";
import { canTransition, statusOf } from "../../labels/status.ts";
import { createMutex, mapWithLimit } from "../concurrency.ts";
import type { ActionContext } from "../context.ts";
import { runTask } from "../run-task.ts";
import type { ModeResult, TaskReport } from "../task-report.ts";
import { NO_USAGE } from "../../agent/usage.ts";
import { baseBranchOf } from "../base-branch.ts";

export async function runIssueMode(ctx: ActionContext, numbers: readonly number[]): Promise<ModeResult> {
  const triggeredAt = ctx.clock.now();
  const base = await baseBranchOf(ctx);
  await ctx.git.fetchBranches([base]);
  const parentRef = ctx.git.remoteRef(base);
  const exclusive = createMutex();

  const tasks = await mapWithLimit(numbers, ctx.config.agent.maxParallel, async (number) => {
    const skip = (title: string, reason: string): TaskReport => {
      ctx.log.info(`Skipping #${number}: ${reason}`);
      return {
        issue: number,
        title,
        status: "skipped",
        reason,
        durationMs: 0,
        usage: NO_USAGE,
        costUsd: 0,
        cards: [],
      };
    };
    if (ctx.signal.aborted) return skip("", "the run was cancelled before this task started");
    const issue = await ctx.gateway.getIssue(number);
    if (!issue || issue.isPullRequest) return skip("", `#${number} is not an issue`);
    if (issue.state !== "open") return skip(issue.title, `#${number} is closed`);
    const status = statusOf(issue.labels);
    if (!canTransition(status, "start")) return skip(issue.title, `#${number} is already locus:${status}`);
    const path = join(ctx.run.worktreeRoot, "locus-worktrees", `issue-${number}`);
    const outcome = await runTask(ctx, {
      issue,
      prBase: base,
      parentRef,
      checkout: (branch, ref) => ctx.git.worktreeAdd(path, branch, ref),
      rebaseOntoParent: false,
      triggeredAt,
      exclusive,
    });
    if (outcome.report.status === "succeeded") await exclusive(() => ctx.git.worktreeRemove(path));
    return outcome.report;
  });
  return { tasks };
}
