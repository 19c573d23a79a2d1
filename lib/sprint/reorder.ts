/**
 * `/locus order 17 15 16`: the reorder rule (docs/architecture.md "Ordering"). Completed (and closed)
 * issues are frozen; the listed issues take orders floor+1, floor+2, … where the
 * floor is the highest frozen order, so done work never sits after pending work.
 */
import { isCompleted, statusOf } from "../status-machine/status-machine.ts";
import { orderOf, withOrder } from "./order.ts";
import type { SprintIssue } from "./sprint-issue.ts";

export interface OrderChange {
  readonly number: number;
  readonly from: number | undefined;
  readonly to: number;
  /** The issue's whole new label set: one call per changed issue. */
  readonly labels: string[];
}

export type ReorderResult =
  { ok: true; floor: number; changes: OrderChange[] } | { ok: false; message: string };

function isFrozen(issue: SprintIssue): boolean {
  return issue.state === "closed" || isCompleted(statusOf(issue.labels));
}

export function reorder(issues: readonly SprintIssue[], requested: readonly number[]): ReorderResult {
  if (issues.length === 0) return { ok: false, message: "No issues in sprint." };
  const byNumber = new Map(issues.map((issue) => [issue.number, issue]));
  const reorderable = issues.filter((issue) => !isFrozen(issue));
  if (reorderable.length === 0) return { ok: false, message: "All tasks completed, nothing to reorder." };

  const seen = new Set<number>();
  for (const number of requested) {
    const issue = byNumber.get(number);
    if (!issue) return { ok: false, message: `#${number} is not in this sprint.` };
    if (isFrozen(issue)) {
      const why = issue.state === "closed" && !isCompleted(statusOf(issue.labels)) ? "closed" : "completed";
      return { ok: false, message: `Task #${number} is ${why} and cannot be reordered.` };
    }
    if (seen.has(number)) return { ok: false, message: `#${number} is listed twice.` };
    seen.add(number);
  }
  const missing = reorderable.filter((issue) => !seen.has(issue.number)).map((issue) => `#${issue.number}`);
  if (missing.length > 0) {
    return {
      ok: false,
      message: `The new order must list every task not yet completed; missing: ${missing.join(", ")}.`,
    };
  }

  const floor = Math.max(0, ...issues.filter(isFrozen).map((issue) => orderOf(issue.labels) ?? 0));
  const changes: OrderChange[] = [];
  requested.forEach((number, index) => {
    const issue = byNumber.get(number);
    if (!issue) return;
    const from = orderOf(issue.labels);
    const to = floor + 1 + index;
    const labels = withOrder(issue.labels, to);
    const alreadyThere = from === to && labels.length === issue.labels.length;
    if (!alreadyThere) changes.push({ number, from, to, labels });
  });
  return { ok: true, floor, changes };
}
