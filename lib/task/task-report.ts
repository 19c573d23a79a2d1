/** What a mode reports about each task it handled: the job summary, the outputs and the exit code read it. */
import { NO_USAGE, type Usage } from "../agent/usage.ts";
import type { ToolCard } from "./tool-cards.ts";

/** `waiting`: the agent asked a question; its work is saved and the issue waits for an answer. */
export type TaskStatus = "succeeded" | "failed" | "waiting" | "no-changes" | "skipped";

export interface TaskReport {
  readonly issue: number;
  readonly title: string;
  readonly status: TaskStatus;
  /** Why it failed, had nothing to do, or was skipped. */
  readonly reason?: string;
  readonly pr?: { readonly number: number; readonly url: string };
  readonly durationMs: number;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly cards: readonly ToolCard[];
  /** Set when unfinished work was saved for the next attempt. */
  readonly checkpoint?: string;
  /** The agent's own summary of what it did. */
  readonly summary?: string;
  /** Locus itself failed (not the task): the job exits non-zero. */
  readonly fault?: boolean;
}

export interface ModeResult {
  readonly tasks: readonly TaskReport[];
  /** A run with no task (nothing open to iterate, nothing stale) says why. */
  readonly note?: string;
}

/** The report of a task that ended before its agent ran: no time, tokens, cost or tool calls. */
export function reportWithoutRun(
  task: { readonly issue: number; readonly title: string },
  status: TaskStatus,
  reason: string,
): TaskReport {
  return { ...task, status, reason, durationMs: 0, usage: NO_USAGE, costUsd: 0, cards: [] };
}

/** One word for the `status` output: any failure wins, then a question waiting, then success, then no-changes. */
export function overallStatus(result: ModeResult): TaskStatus {
  const statuses = result.tasks.map((task) => task.status);
  if (statuses.includes("failed")) return "failed";
  if (statuses.includes("waiting")) return "waiting";
  if (statuses.includes("succeeded")) return "succeeded";
  if (statuses.includes("no-changes")) return "no-changes";
  return "skipped";
}
