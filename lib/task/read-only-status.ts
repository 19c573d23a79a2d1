/**
 * A read-only run's status comment (plan, review, ask): the lifecycle's
 * `read-only-started` as the agent starts, `read-only-finished` with what it
 * cost as it ends. No status label moves; the day's spend and the task's
 * cost grow in the lifecycle, not here.
 */
import { advanceTask, statusTarget } from "../lifecycle/apply-effects.ts";
import { taskState, type TaskState } from "../lifecycle/lifecycle.ts";
import { readStatusRecord } from "../status/status-store.ts";
import type { ActionContext } from "./context.ts";

type StatusContext = Pick<ActionContext, "gateway" | "clock" | "run" | "mask">;

export interface ReadOnlyStatus {
  /** Ends the run: the headline, what it cost, and a comment saying why it produced nothing, if so. */
  readonly finish: (headline: string, usd: number, comment?: string) => Promise<void>;
}

/**
 * Reads the (or PR's) status comment and shows `headline` on it, with the run's link; with
 * no headline, nothing is shown until the end. `taskCost`: whether the run's cost is the task's too
 * (a plan, a review), or only the day's (an answer).
 */
export async function startReadOnlyStatus(
  ctx: StatusContext,
  number: number,
  headline: string | undefined,
  taskCost = true,
): Promise<ReadOnlyStatus> {
  const record = await readStatusRecord(ctx.gateway, number);
  const target = statusTarget(ctx.gateway, { number }, record, ctx.mask);
  // No status label moves in a read-only run, so the step needs none of the labels.
  let task: TaskState = taskState([], record.state);
  if (headline !== undefined) {
    const started = await advanceTask(target, task, {
      kind: "read-only-started",
      headline,
      runUrl: ctx.run.url,
      unsandboxed: ctx.run.unsandboxed === true,
    });
    task = started.task;
  }
  return {
    finish: async (end, usd, comment) => {
      task = (
        await advanceTask(target, task, {
          kind: "read-only-finished",
          headline: end,
          taskCost,
          usd,
          at: ctx.clock.now(),
          comment,
        })
      ).task;
    },
  };
}
