/**
 * Work on an open Locus PR, as its linked issue's lifecycle sees it.
 *
 * A round (iterate, fix-ci): the issue goes in-review → in-progress as the
 * round starts and back (deliver) or to failed as it ends, and its status
 * comment follows, with the round's cost added to the task's. The modes
 * differ in what the agent is asked to do, not in this bookkeeping, which is
 * the lifecycle's (`round-started`, `round-finished` in lib/lifecycle/lifecycle.ts).
 *
 * A restack (rebase): the issue leaves review only if it is in review, and
 * goes back only if this run took it out (`restack-started`,
 * `restack-finished`); a rebase that stops on a conflict fails nothing.
 */
import type { StatusView } from "../status/status-comment.ts";
import { statusRecordIn } from "../status/status-store.ts";
import { advanceTask, statusTarget } from "../lifecycle/apply-effects.ts";
import { resumesReview, taskState, type TaskEvent, type TaskState } from "../lifecycle/lifecycle.ts";
import type { ActionContext } from "../task/context.ts";
import { selfLogins } from "../trust/self-logins.ts";
import type { ModeResult, TaskReport } from "../task/task-report.ts";

type RoundContext = Pick<ActionContext, "gateway" | "clock" | "config" | "identity" | "run" | "mask">;

interface LinkedIssue {
  readonly number: number;
  readonly nodeId?: string | undefined;
  readonly labels: readonly string[];
  readonly comments: Parameters<typeof statusRecordIn>[0];
}

export interface PullRequestRound {
  /** Shows what the agent is doing now in the issue's status comment. */
  readonly progress: (view: StatusView) => Promise<unknown>;
  /** Ends the round: the status event on the issue's labels, then the status comment with the cost. */
  readonly finish: (report: TaskReport, headline: string, event: "deliver" | "fail") => Promise<ModeResult>;
}

export interface Restack {
  /** Shows what the conflict resolver is doing now in the issue's status comment. */
  readonly progress: (view: StatusView) => Promise<unknown>;
  /** Ends the rebase: back in review if this run took the issue out of it, the cost added. */
  readonly finish: (headline: string, usd: number) => Promise<unknown>;
}

/** The linked issue's lifecycle from its status comment as read: each event stepped and applied. */
function linkedTask(ctx: RoundContext, issue: LinkedIssue) {
  const record = statusRecordIn(issue.comments, selfLogins(ctx));
  const target = statusTarget(ctx.gateway, issue, record, ctx.mask);
  let task: TaskState = taskState(issue.labels, record.state);
  return {
    now: () => task,
    // The labels and the status comment change at one moment: one request (gateway.writeMoment).
    async apply(event: TaskEvent): Promise<void> {
      task = (await advanceTask(target, task, event)).task;
    },
  };
}

export async function startPullRequestRound(
  ctx: RoundContext,
  issue: LinkedIssue,
  headline: string,
): Promise<PullRequestRound> {
  const linked = linkedTask(ctx, issue);
  await linked.apply({
    kind: "round-started",
    headline,
    runUrl: ctx.run.url,
    unsandboxed: ctx.run.unsandboxed === true,
  });
  return {
    progress: (view) => linked.apply({ kind: "progress", view }),
    finish: async (report, endHeadline, event) => {
      await linked.apply({
        kind: "round-finished",
        outcome: event,
        headline: endHeadline,
        usd: report.costUsd,
        at: ctx.clock.now(),
        lastError: report.status === "failed" ? report.reason : undefined,
      });
      return { tasks: [report] };
    },
  };
}

export async function startRestack(
  ctx: RoundContext,
  issue: LinkedIssue,
  headline: string,
): Promise<Restack> {
  const linked = linkedTask(ctx, issue);
  const before = linked.now().labels;
  await linked.apply({
    kind: "restack-started",
    headline,
    runUrl: ctx.run.url,
    unsandboxed: ctx.run.unsandboxed === true,
  });
  // Another run's work in progress stays in progress when this rebase ends.
  const resume = resumesReview(before, linked.now().labels);
  return {
    progress: (view) => linked.apply({ kind: "progress", view }),
    finish: (endHeadline, usd) =>
      linked.apply({ kind: "restack-finished", resume, headline: endHeadline, usd, at: ctx.clock.now() }),
  };
}
