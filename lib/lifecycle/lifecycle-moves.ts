/**
 * The pieces every lifecycle step is made of (lifecycle.ts, label-steps.ts):
 * a label move of the status machine (lib/status-machine/status-machine.ts), the status
 * comment to show, and the bookkeeping of the comment's hidden state (cost,
 * the run). Pure, like the steps.
 */
import { withDaySpend } from "../cost/daily-budget.ts";
import { transition, type StatusEvent } from "../status-machine/status-machine.ts";
import type { StatusState, StatusView } from "../status/status-comment.ts";
import type { Effect, Spend, Step, TaskState } from "./task-events.ts";

/** The status comment's part of the task's state. */
function recordOf(task: TaskState): StatusState {
  const { labels: _labels, ...record } = task;
  return record;
}

export function taskState(labels: readonly string[], record: StatusState): TaskState {
  return { ...record, labels: [...labels] };
}

export function spend(task: TaskState, { usd, at }: Spend): TaskState {
  return {
    ...withDaySpend(recordOf(task), at, usd),
    costUsd: (task.costUsd ?? 0) + usd,
    labels: task.labels,
  };
}

/** Only the day's spend grows (the daily cap's tally): the task's own cost stays. */
export function daySpend(task: TaskState, { usd, at }: Spend): TaskState {
  return { ...withDaySpend(recordOf(task), at, usd), labels: task.labels };
}

export function without<K extends keyof StatusState>(task: TaskState, ...keys: K[]): TaskState {
  const next = { ...task };
  for (const key of keys) delete next[key];
  return next;
}

export function withRun(task: TaskState, runUrl: string | undefined, unsandboxed: boolean): TaskState {
  const next = unsandboxed ? { ...task, unsandboxed: true } : without(task, "unsandboxed");
  return runUrl ? { ...next, runUrl } : next;
}

/**
 * The label move of `event` applied to `task`: the new labels and their write when they changed.
 * `strict`: a move the machine does not allow refuses the event; otherwise the labels stay as they are.
 */
export function move(
  task: TaskState,
  event: StatusEvent,
  strict: boolean,
): { labels: readonly string[]; effects: Effect[] } | { refused: string } {
  const moved = transition(task.labels, event);
  if (!moved.ok) return strict ? { refused: moved.message } : { labels: task.labels, effects: [] };
  return { labels: moved.labels, effects: moved.changed ? [{ kind: "labels", labels: moved.labels }] : [] };
}

/** Only the labels move (strict): the status comment keeps what was recorded. */
export function labelsOnly(task: TaskState, event: StatusEvent): Step {
  const next = move(task, event, true);
  if ("refused" in next) return next;
  return { state: { ...task, labels: next.labels }, effects: next.effects };
}

export function shown(task: TaskState, view: StatusView): Effect {
  return { kind: "status", view, state: recordOf(task) };
}

/** The labels, then the status comment: one moment. */
export function moved(
  task: TaskState,
  event: StatusEvent,
  strict: boolean,
  view: StatusView,
  extra: Effect[] = [],
): Step {
  const next = move(task, event, strict);
  if ("refused" in next) return next;
  const state = { ...task, labels: next.labels };
  return { state, effects: [...next.effects, shown(state, view), ...extra] };
}
