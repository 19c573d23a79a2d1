/**
 * What a mode hands runTask (the issue as read, where the PR goes, how to
 * check out its branch, the day's budget) and what it gets back. Apart from
 * run-task.ts so the paths that end a task (task-failure.ts, task-question.ts,
 * task-delivery.ts) can name them without importing runTask itself.
 */
import type { GitClient } from "../git/git-client.ts";
import type { MomentWrite, TaskIssue } from "../github/index.ts";
import type { SprintContext } from "../prompt/task-prompt.ts";
import type { DailyBudget } from "../cost/daily-budget.ts";
import type { TaskReport } from "./task-report.ts";
import type { Writers } from "../trust/writers.ts";

export interface TaskPlan {
  /** As read once for this run, with edit histories; its comments include the status comment. */
  readonly issue: TaskIssue;
  /** The branch the PR targets: the base branch, or the previous sprint task's. */
  readonly prBase: string;
  /** The remote ref of `prBase`, already fetched: where a fresh attempt starts. */
  readonly parentRef: string;
  readonly sprint?: SprintContext;
  /** The PR of the previous sprint task. */
  readonly stackedOn?: number;
  /** Puts `branch` at `ref` in a clean working directory and answers its git client. */
  readonly checkout: (branch: string, ref: string) => Promise<GitClient>;
  /** Sprint tasks retrying an existing branch rebase it onto a parent that moved. */
  readonly rebaseOntoParent: boolean;
  /** When GitHub created the run: the latest moment a writer's act could have triggered the task. */
  readonly triggeredAt: Date;
  /** Serialises the steps that touch the shared repository (fetch, worktree add) across parallel tasks. */
  readonly exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The daily cost cap, when config sets one: checked before the task starts, its remainder caps the task. */
  readonly budget?: DailyBudget;
  /** The run's permission lookups, shared by its tasks; the task makes its own when absent. */
  readonly writers?: Writers;
  /** Other writes of the task's start moment (the sprint dashboard), sent with its labels and status. */
  readonly alongsideStart?: readonly MomentWrite[];
}

export interface TaskOutcome {
  readonly report: TaskReport;
  /** The worktree, for callers that clean up after success. */
  readonly worktree?: GitClient;
  /** Files a rebase before the task conflicted in (sprint mode reports them on the tracking issue). */
  readonly conflicts?: readonly string[];
  /** The issue's labels and attempt count after the task, as Locus last wrote them. */
  readonly labels: readonly string[];
  readonly attempts: number;
}
