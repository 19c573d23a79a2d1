/**
 * Mode `issue`: each issue in its own worktree under `RUNNER_TEMP`, from the
 * base branch on `locus/issue-<N>`, at most `agent.maxParallel` at a time.
 * A worktree is removed after success and kept after a failure for the log.
 * Each issue is read once, in one GraphQL request; the first read also
 * brings the default branch, the run's creation time and the day's spend.
 */
import { join } from "node:path";
import { statusOf } from "../../status-machine/status-machine.ts";
import { canStart } from "../../lifecycle/lifecycle.ts";
import { createMutex, mapWithLimit } from "../../task/concurrency.ts";
import type { ActionContext } from "../../task/context.ts";
import { runTask } from "../../task/run-task.ts";
import { reportWithoutRun, type ModeResult, type TaskReport } from "../../task/task-report.ts";
import { MANAGED_LABEL } from "../../labels/schema.ts";
import { firstReadOptions, runFacts } from "../../task/task-read-context.ts";
import { createWriters } from "../../trust/writers.ts";

export async function runIssueMode(ctx: ActionContext, numbers: readonly number[]): Promise<ModeResult> {
  const [firstNumber, ...others] = numbers;
  if (firstNumber === undefined) return { tasks: [] };
  const first = await ctx.gateway.readTask(firstNumber, firstReadOptions(ctx));
  const reads = [
    first,
    ...(await mapWithLimit(others, ctx.config.agent.maxParallel, (number) =>
      ctx.gateway.readTask(number, { managedLabel: MANAGED_LABEL }),
    )),
  ];
  const { triggeredAt, baseBranch: base, budget } = runFacts(ctx, first);
  await ctx.git.fetchBranches([base]);
  const parentRef = ctx.git.remoteRef(base);
  const exclusive = createMutex();
  const writers = createWriters(ctx);

  const tasks = await mapWithLimit(numbers, ctx.config.agent.maxParallel, async (number, index) => {
    const skip = (title: string, reason: string): TaskReport => {
      ctx.log.info(`Skipping #${number}: ${reason}`);
      return reportWithoutRun({ issue: number, title }, "skipped", reason);
    };
    if (ctx.signal.aborted) return skip("", "the run was cancelled before this task started");
    const issue = reads[index]?.issue;
    if (!issue) return skip("", `#${number} is not an issue`);
    if (issue.state !== "open") return skip(issue.title, `#${number} is closed`);
    if (!canStart(issue.labels))
      return skip(issue.title, `#${number} is already locus:${statusOf(issue.labels) ?? ""}`);
    const path = join(ctx.run.worktreeRoot, "locus-worktrees", `issue-${number}`);
    const outcome = await runTask(ctx, {
      issue,
      prBase: base,
      parentRef,
      checkout: (branch, ref) => ctx.git.worktreeAdd(path, branch, ref),
      rebaseOntoParent: false,
      triggeredAt,
      exclusive,
      writers,
      ...(budget ? { budget } : {}),
    });
    if (outcome.report.status === "succeeded") await exclusive(() => ctx.git.worktreeRemove(path));
    return outcome.report;
  });
  return { tasks };
}
