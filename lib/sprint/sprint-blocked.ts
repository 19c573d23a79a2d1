/**
 * Why a sprint cannot go on by itself: a task that failed, waits for an
 * answer or is still marked in progress, or an issue without an order. Queued
 * tasks behind such a stop are not lost work, so the reconciler and the stale
 * sweep leave that sprint alone (the stop has its own rule: a failure's retry
 * budget, an answer, the stale in-progress check, a person adding the order).
 * Pure.
 */
import { statusOf } from "../status-machine/status-machine.ts";
import { planSprint } from "./plan.ts";
import type { SprintIssue } from "./sprint-issue.ts";

export function sprintBlockedBy(issues: readonly SprintIssue[]): string | undefined {
  const plan = planSprint(issues);
  if (plan.unordered.length > 0)
    return `issues without an order: ${plan.unordered.map((n) => `#${n}`).join(", ")}`;
  const stop = plan.tasks.find((task) => {
    const status = statusOf(task.issue.labels);
    return status === "failed" || status === "waiting" || status === "in-progress";
  });
  return stop ? `#${stop.issue.number} is ${statusOf(stop.issue.labels) ?? ""}` : undefined;
}
