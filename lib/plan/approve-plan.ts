/**
 * `/locus approve [2,1,3]`: turn a plan into the issues to create, in the
 * confirmed sequence, deterministically. No AI is involved here.
 */
import { markerOpen, MARKER_CLOSE } from "../markers.ts";
import { safeToPublish } from "../render/safe-text.ts";
import { untrustedLine } from "../render/markdown.ts";
import { MANAGED_LABEL, ORDER_PREFIX } from "../labels/schema.ts";
import type { Plan, PlannedTask } from "./plan-schema.ts";

export interface IssueToCreate {
  /** 1-based position of the task in the plan as proposed. */
  readonly position: number;
  /** Its place in the confirmed sequence: becomes `order:N`. */
  readonly order: number;
  readonly task: PlannedTask;
  readonly labels: string[];
}

export type ApprovalResult =
  { ok: true; milestone: string; issues: IssueToCreate[] } | { ok: false; message: string };

export function approvePlan(plan: Plan, sequence?: readonly number[]): ApprovalResult {
  const count = plan.tasks.length;
  const order = sequence ?? plan.tasks.map((_, index) => index + 1);
  const sorted = [...order].sort((a, b) => a - b);
  if (order.length !== count || sorted.some((value, index) => value !== index + 1)) {
    return {
      ok: false,
      message: `The plan has ${count} tasks: list each of 1…${count} once, e.g. \`/locus approve ${[...plan.tasks.keys()].map((i) => i + 1).join(",")}\`.`,
    };
  }
  const rank = new Map(order.map((position, index) => [position, index]));
  for (const [index, task] of plan.tasks.entries()) {
    for (const dependency of task.dependsOn) {
      if ((rank.get(dependency) ?? 0) > (rank.get(index + 1) ?? 0)) {
        return {
          ok: false,
          message: `Task ${index + 1} (${task.title}) depends on task ${dependency}, which this order runs after it.`,
        };
      }
    }
  }
  const issues = order.map((position, index) => {
    const task = plan.tasks[position - 1] as PlannedTask;
    const labels = [`p:${task.priority}`, `type:${task.type}`, `${ORDER_PREFIX}${index + 1}`, MANAGED_LABEL];
    return { position, order: index + 1, task, labels };
  });
  return { ok: true, milestone: plan.sprint, issues };
}

/**
 * The issues with their orders after `highest`, the largest order already in
 * the milestone: a plan approved into an existing sprint continues it rather
 * than colliding with the orders there.
 */
export function ordersAfter(issues: readonly IssueToCreate[], highest: number): IssueToCreate[] {
  return issues.map((entry) => {
    const order = entry.order + highest;
    const labels = entry.labels.map((label) =>
      label.startsWith(ORDER_PREFIX) ? `${ORDER_PREFIX}${order}` : label,
    );
    return { ...entry, order, labels };
  });
}

/** The hidden marker that makes a created issue findable again (no duplicate on a retried approve). */
export function plannedIssueMarker(planCommentId: number, position: number): string {
  return `${plannedByMarker(planCommentId)}task=${position}${MARKER_CLOSE}`;
}

/** What every issue created from one plan comment carries, whatever its task. */
export function plannedByMarker(planCommentId: number): string {
  return `${markerOpen("planned")}comment=${planCommentId} `;
}

export function renderPlannedIssueBody(
  entry: IssueToCreate,
  planCommentId: number,
  dependencyIssues: readonly number[],
): string {
  const parts = [plannedIssueMarker(planCommentId, entry.position), safeToPublish(entry.task.body.trim())];
  if (dependencyIssues.length > 0)
    parts.push(`**Depends on:** ${dependencyIssues.map((n) => `#${n}`).join(", ")}`);
  if (entry.task.acceptanceCriteria.length > 0) {
    parts.push(
      [
        "**Acceptance criteria**",
        ...entry.task.acceptanceCriteria.map((c) => `- [ ] ${untrustedLine(c)}`),
      ].join("\n"),
    );
  }
  parts.push(`<sub>Complexity: ${entry.task.complexity}. Planned by Locus.</sub>`);
  return parts.filter((part) => part.length > 0).join("\n\n");
}
