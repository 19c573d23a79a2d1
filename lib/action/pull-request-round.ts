/**
 * One round of work on an open Locus PR (iterate, fix-ci): the linked issue goes
 * in-review → in-progress as the round starts and back (deliver) or to failed as it
 * ends, and its status comment follows, with the round's cost added to the task's.
 * The modes differ in what the agent is asked to do, not in this bookkeeping, which
 * is the lifecycle's (`round-started`, `round-finished` in lib/task/lifecycle.ts).
 */
import type { StatusView } from "../status/status-comment.ts";
import { createStatusWriter, statusRecordIn } from "../status/status-store.ts";
import { applyEffects, type EffectTarget } from "../task/apply-effects.ts";
import { step, taskState, type Step, type TaskState } from "../task/lifecycle.ts";
import type { ActionContext } from "./context.ts";
import { selfLogins } from "./self-logins.ts";
import type { ModeResult, TaskReport } from "./task-report.ts";

export interface PullRequestRound {
  /** Shows what the agent is doing now in the issue's status comment. */
  readonly progress: (view: StatusView) => Promise<unknown>;
  /** Ends the round: the status event on the issue's labels, then the status comment with the cost. */
  readonly finish: (report: TaskReport, headline: string, event: "deliver" | "fail") => Promise<ModeResult>;
}

export async function startPullRequestRound(
  ctx: Pick<ActionContext, "gateway" | "clock" | "config" | "run" | "mask">,
  issue: {
    readonly number: number;
    readonly nodeId?: string | undefined;
    readonly labels: readonly string[];
    readonly comments: Parameters<typeof statusRecordIn>[0];
  },
  headline: string,
): Promise<PullRequestRound> {
  const { gateway } = ctx;
  const record = statusRecordIn(issue.comments, selfLogins(ctx));
  const writeStatus = createStatusWriter(gateway, issue, record);
  const target: EffectTarget = { gateway, issue, writeStatus, mask: ctx.mask };
  let task: TaskState = taskState(issue.labels, record.state);
  async function apply(next: Step): Promise<void> {
    if ("refused" in next) throw new Error(`#${issue.number}: ${next.refused}`);
    task = next.state;
    const applied = await applyEffects(target, next.effects);
    if (applied.labels) task = { ...task, labels: applied.labels };
  }
  // The labels and the status comment change at one moment: one request (gateway.writeMoment).
  await apply(
    step(task, {
      kind: "round-started",
      headline,
      runUrl: ctx.run.url,
      unsandboxed: ctx.run.unsandboxed === true,
    }),
  );
  return {
    progress: (view) => apply(step(task, { kind: "progress", view })),
    finish: async (report, endHeadline, event) => {
      await apply(
        step(task, {
          kind: "round-finished",
          outcome: event,
          headline: endHeadline,
          usd: report.costUsd,
          at: ctx.clock.now(),
          lastError: report.status === "failed" ? report.reason : undefined,
        }),
      );
      return { tasks: [report] };
    },
  };
}
