/**
 * What one started task carries from step to step: the lifecycle state Locus
 * last wrote, where the work is (the task's start and worktree), and what the
 * agent did and spent. runTask fills it in as the task goes; the paths that end
 * a task (task-failure.ts, task-question.ts, task-delivery.ts) read and advance
 * it instead of closing over runTask's locals. Every write still goes through
 * the lifecycle's `step` and `applyEffects` (lib/task/).
 */
import type { RunResult } from "../agent/runner.ts";
import { addUsage, NO_USAGE, type Usage } from "../agent/usage.ts";
import type { GitClient, WorktreeFiles } from "../git/git-client.ts";
import type { MomentWrite, TaskIssue } from "../github/index.ts";
import type { StatusState } from "../status/status-comment.ts";
import type { Step, TaskEvent, TaskState } from "../lifecycle/lifecycle.ts";
import {
  advanceTask,
  applyStep as applyTaskStep,
  type Applied,
  type EffectTarget,
} from "../lifecycle/apply-effects.ts";
import type { ActionContext } from "./context.ts";
import { scratchFiles } from "./scratch-files.ts";
import type { TaskPlan } from "./task-plan.ts";
import type { TaskStart } from "./task-start.ts";
import type { EventRecorder, ToolCard } from "./tool-cards.ts";

export interface TaskSession {
  readonly ctx: ActionContext;
  readonly plan: TaskPlan;
  /** The issue, with the title a writer vouched for by triggering the task. */
  readonly issue: TaskIssue;
  /** The status comment's state as the task found it. */
  readonly found: StatusState;
  readonly target: EffectTarget;
  readonly recorder: EventRecorder;
  /** When the task started, in milliseconds on the run's clock. */
  readonly startedAt: number;
  /** The lifecycle state, as Locus last wrote it. */
  task: TaskState;
  /** What resolving a checkpoint's rebase conflicts cost: spent before the task's own agent ran. */
  resolving: { readonly costUsd: number; readonly usage: Usage };
  start?: TaskStart;
  worktree?: GitClient;
  result?: RunResult;
}

/** A lifecycle step, applied: its labels and status comment in one moment, then its comments. */
export async function applyStep(
  s: TaskSession,
  next: Step,
  alongside: readonly MomentWrite[] = [],
): Promise<Applied> {
  const { task, applied } = await applyTaskStep(s.target, next, alongside);
  s.task = task;
  return applied;
}

/** What happened, as the lifecycle's event; what it spent also counts against the day's cap. */
export async function advance(
  s: TaskSession,
  event: TaskEvent,
  alongside?: readonly MomentWrite[],
): Promise<Applied> {
  if ("usd" in event) s.plan.budget?.record(event.usd);
  const { task, applied } = await advanceTask(s.target, s.task, event, alongside);
  s.task = task;
  return applied;
}

/** The start of every report of a task that ran: which issue; usage and cost follow from `spentSoFar`. */
export function reportHead(s: TaskSession): {
  readonly issue: number;
  readonly title: string;
  readonly usage: Usage;
  readonly costUsd: number;
} {
  return { issue: s.issue.number, title: s.issue.title, usage: NO_USAGE, costUsd: 0 };
}

/** How long the task took, what it used and cost (conflict resolving included), its tool cards. */
export function spentSoFar(
  s: TaskSession,
  run: RunResult | undefined,
): { durationMs: number; usage: Usage; costUsd: number; cards: readonly ToolCard[] } {
  return {
    durationMs: s.ctx.clock.now().getTime() - s.startedAt,
    usage: addUsage(s.resolving.usage, run?.usage ?? NO_USAGE),
    costUsd: s.resolving.costUsd + (run?.costUsd ?? 0),
    cards: s.recorder.cards(),
  };
}

/** What to leave out of a commit, and the one listing of the worktree it was worked out from. */
export interface ScratchCut {
  /** Untracked scratch files and build output the agent's commands left (scratch-files.ts). */
  readonly leaveOut: string[];
  /** For `stageAll`, which then need not list the worktree again. */
  readonly listed: WorktreeFiles;
}

/** Untracked scratch files and build output the agent's commands left in the worktree (scratch-files.ts). */
export async function scratchIn(worktree: GitClient, result: RunResult | undefined): Promise<ScratchCut> {
  const listed = await worktree.worktreeFiles();
  return { leaveOut: scratchFiles(listed.untracked, result?.filesChanged ?? [], listed.tracked), listed };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
