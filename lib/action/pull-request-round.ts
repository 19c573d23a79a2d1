/**
 * One round of work on an open Locus PR (iterate, fix-ci): the linked issue goes
 * in-review → in-progress as the round starts and back (deliver) or to failed as it
 * ends, and its status comment follows, with the round's cost added to the task's.
 * The modes differ in what the agent is asked to do, not in this bookkeeping.
 */
import { transition } from "../labels/status.ts";
import type { StatusState } from "../status/status-comment.ts";
import { labelWrite } from "../github/index.ts";
import { createStatusWriter, statusRecordIn, type StatusWriter } from "../status/status-store.ts";
import type { ActionContext } from "./context.ts";
import { withDaySpend } from "./daily-budget.ts";
import { selfLogins } from "./self-logins.ts";
import type { ModeResult, TaskReport } from "./task-report.ts";

export interface PullRequestRound {
  /** The status the round started from (runUrl and the sandbox note included). */
  readonly status: StatusState;
  readonly writeStatus: StatusWriter;
  /** Ends the round: the status event on the issue's labels, then the status comment with the cost. */
  readonly finish: (report: TaskReport, headline: string, event: "deliver" | "fail") => Promise<ModeResult>;
}

export async function startPullRequestRound(
  ctx: Pick<ActionContext, "gateway" | "clock" | "config" | "run">,
  issue: {
    readonly number: number;
    readonly nodeId?: string | undefined;
    readonly comments: Parameters<typeof statusRecordIn>[0];
  },
  workingLabels: string[],
  headline: string,
): Promise<PullRequestRound> {
  const { gateway } = ctx;
  const record = statusRecordIn(issue.comments, selfLogins(ctx));
  const writeStatus = createStatusWriter(gateway, issue, record);
  const status: StatusState = {
    ...record.state,
    ...(ctx.run.url ? { runUrl: ctx.run.url } : {}),
    ...(ctx.run.unsandboxed ? { unsandboxed: true } : {}),
  };
  // The labels and the status comment change at one moment: one request (gateway.writeMoment).
  const started = await writeStatus({ headline }, status, [labelWrite(issue, workingLabels)]);
  let labels = started.labels.get(issue.number) ?? workingLabels;
  return {
    status,
    writeStatus,
    finish: async (report, endHeadline, event) => {
      const next = transition(labels, event);
      const written = await writeStatus(
        { headline: endHeadline },
        {
          ...withDaySpend(status, ctx.clock.now(), report.costUsd),
          costUsd: (record.state.costUsd ?? 0) + report.costUsd,
          ...(report.status === "failed" && report.reason ? { lastError: report.reason.slice(0, 500) } : {}),
        },
        next.ok && next.changed ? [labelWrite(issue, next.labels)] : [],
      );
      labels = written.labels.get(issue.number) ?? labels;
      return { tasks: [report] };
    },
  };
}
