/**
 * How a started task ends when it cannot deliver: the work so far is saved on
 * the wip branch (a checkpoint the next attempt continues from), then either
 * the run was stopped by `/locus cancel` (no failure: the issue stays cleared)
 * or the lifecycle records the failure and its comment says why.
 */
import type { Step } from "../lifecycle/lifecycle.ts";
import { pushRefusalOf, type PushRefusal } from "../git/push-refusal.ts";
import type { SetupFailure } from "../render/setup-section.ts";
import { saveCheckpoint } from "./checkpoint.ts";
import { runFaultOf } from "./run-fault.ts";
import type { TaskOutcome } from "./task-plan.ts";
import {
  advance,
  applyStep,
  messageOf,
  reportHead,
  scratchIn,
  spentSoFar,
  type TaskSession,
} from "./task-session.ts";
import { step } from "../lifecycle/lifecycle.ts";

const LOG_TAIL_LINES = 30;

export interface FailOptions {
  /** Locus itself failed, not the task: the job exits non-zero. */
  readonly fault?: boolean;
  /** Files a rebase conflicted in (sprint mode reports them). */
  readonly conflicts?: readonly string[];
  /** The agent finished without changing anything: reported as no-changes. */
  readonly noChanges?: boolean;
  /** GitHub refused the task's push for a rule: the comment names it and what to change. */
  readonly pushRefusal?: PushRefusal;
  /** A setup command failed before the agent started: the comment shows it and its output. */
  readonly setupFailure?: SetupFailure;
}

export async function failTask(
  s: TaskSession,
  reason: string,
  options: FailOptions = {},
): Promise<TaskOutcome> {
  const { ctx, issue, worktree, start, result } = s;
  const { conflicts } = options;
  // An error nothing caught stopped the run (run-fault.ts): that, not "cancelled", is why it failed.
  const runFault = runFaultOf(ctx.signal);
  const fault = options.fault ?? runFault !== undefined;
  const masked = ctx.mask(runFault?.message ?? reason);
  let checkpoint: string | undefined;
  let wipRefused = false;
  if (worktree && start) {
    try {
      checkpoint = await saveCheckpoint({
        worktree,
        issue,
        reason: masked,
        summary: ctx.mask(result?.summary ?? ""),
        startSha: (await worktree.revParse(start.ref)) ?? "",
        remoteWip: start.remoteWip,
        ...(await scratchIn(worktree, result)),
      });
      // Said in the log too: the comment below needs GitHub, and the token may be what failed.
      if (checkpoint) ctx.log.info(`The work so far is saved on ${checkpoint}.`);
    } catch (error) {
      ctx.log.error(ctx.mask(`Could not save a checkpoint: ${messageOf(error)}`));
      // The same rule (a ruleset on every branch, a secret in the commits) often refuses the wip branch too.
      wipRefused = pushRefusalOf(messageOf(error)) !== undefined;
    }
  }
  const spent = { usd: result?.costUsd ?? 0, at: ctx.clock.now() };
  // A run stopped by `/locus cancel` finds its issue cleared: that is no failure, and it stays cleared.
  if (ctx.signal.aborted) {
    const now = (await ctx.gateway.getIssue(issue.number))?.labels ?? s.task.labels;
    const cancel = step(s.task, { kind: "cancelled", labels: now, checkpoint, ...spent });
    if (!("refused" in cancel)) return cancelled(s, cancel, spent.usd, checkpoint);
    s.task = { ...s.task, labels: now };
  }
  await advance(s, {
    kind: "failed",
    reason: masked,
    checkpoint,
    comment: {
      repositoryUrl: ctx.run.repositoryUrl,
      logTail: s.recorder.tail(LOG_TAIL_LINES),
      runUrl: ctx.run.url,
      ...(result?.summary ? { agentSaid: result.summary } : {}),
      ...(options.pushRefusal ? { pushRefusal: { ...options.pushRefusal, wipRefused } } : {}),
      ...(options.setupFailure
        ? { setupFailure: { ...options.setupFailure, logTail: ctx.mask(options.setupFailure.logTail) } }
        : {}),
    },
    ...spent,
  });
  return {
    report: {
      ...reportHead(s),
      status: options.noChanges ? "no-changes" : "failed",
      reason: masked,
      ...spentSoFar(s, result),
      ...(checkpoint ? { checkpoint } : {}),
      ...(result?.summary ? { summary: ctx.mask(result.summary) } : {}),
      ...(fault ? { fault } : {}),
    },
    worktree,
    ...(conflicts ? { conflicts } : {}),
    labels: s.task.labels,
    attempts: s.task.attempts,
  };
}

/** A cancelled task: what it spent still counts, its issue stays as the cancel left it. */
async function cancelled(
  s: TaskSession,
  cancel: Step,
  usd: number,
  checkpoint: string | undefined,
): Promise<TaskOutcome> {
  s.plan.budget?.record(usd);
  await applyStep(s, cancel);
  return {
    report: {
      ...reportHead(s),
      status: "skipped",
      reason: "cancelled with /locus cancel",
      ...spentSoFar(s, s.result),
      ...(checkpoint ? { checkpoint } : {}),
    },
    worktree: s.worktree,
    labels: s.task.labels,
    attempts: s.task.attempts,
  };
}

/** Why a branch whose rebase onto its moved parent conflicted cannot go on without a person. */
export function conflictReason(parent: string, files: readonly string[]): string {
  const list = files.length > 0 ? files.map((file) => `\`${file}\``).join(", ") : "(unknown files)";
  return `rebasing onto \`${parent}\` conflicts in ${list}. Resolve the conflict on the branch by hand, then comment \`/locus run\``;
}
