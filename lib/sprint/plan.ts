/**
 * What a sprint run does, in order: completed tasks are skipped, failed and
 * interrupted ones retried in their position, pending ones run. With
 * `stopOnFailure` the run stops at the first task that fails.
 */
import { isCompleted, statusOf } from "../status-machine/status-machine.ts";
import type { Status } from "../labels/schema.ts";
import { sortByOrder } from "./order.ts";
import type { SprintIssue } from "./sprint-issue.ts";

export type TaskAction = "run" | "retry" | "resume";

export interface PlannedTask<T extends SprintIssue> {
  readonly issue: T;
  readonly order: number | undefined;
  readonly action: TaskAction;
  /** 1-based position among all open, ordered tasks, for "3 of 5" in prompts. */
  readonly position: number;
}

export interface SprintPlan<T extends SprintIssue> {
  readonly tasks: ReadonlyArray<PlannedTask<T>>;
  /** Completed tasks in order: the work later tasks build on. */
  readonly completed: readonly T[];
  readonly total: number;
  readonly unordered: readonly number[];
  /** Set when there is nothing to run, with the reason a user reads. */
  readonly idle?: string;
}

function actionFor(status: Status | undefined): TaskAction {
  if (status === "failed") return "retry";
  if (status === "in-progress") return "resume";
  return "run";
}

export function planSprint<T extends SprintIssue>(issues: readonly T[]): SprintPlan<T> {
  const open = issues.filter((issue) => issue.state === "open" || isCompleted(statusOf(issue.labels)));
  const { ordered, unordered } = sortByOrder(open);
  const sequence = [
    ...ordered,
    ...unordered.map((issue) => ({ issue, order: undefined as number | undefined })),
  ];
  const tasks: Array<PlannedTask<T>> = [];
  const completed: T[] = [];
  sequence.forEach(({ issue, order }, index) => {
    const status = statusOf(issue.labels);
    if (isCompleted(status)) completed.push(issue);
    else if (issue.state === "open")
      tasks.push({ issue, order, action: actionFor(status), position: index + 1 });
  });
  const unorderedNumbers = unordered.map((issue) => issue.number);
  const base = { tasks, completed, total: sequence.length, unordered: unorderedNumbers };
  if (issues.length === 0) return { ...base, idle: "No issues in sprint." };
  if (tasks.length === 0) return { ...base, idle: "All tasks completed, nothing to run." };
  return base;
}

export type TaskOutcome = "succeeded" | "failed";

/** Whether a sprint run goes on to its next task after this outcome. */
export function continuesAfter(outcome: TaskOutcome, stopOnFailure: boolean): boolean {
  return outcome === "succeeded" || !stopOnFailure;
}
