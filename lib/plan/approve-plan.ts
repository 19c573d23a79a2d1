/**
 * `/locus approve [2,1,3]`: turn a plan into the issues to create, in the
 * confirmed sequence, deterministically. No AI is involved here.
 */
import { markerOpen, MARKER_CLOSE } from "../markers.ts";
import { list, paragraph, plain, root, small, strong, trustedHtml } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline, untrustedMarkdown } from "../render/tree/untrusted-text.ts";
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
          // The title is the model's: text in a tree, so it can neither ping nor close.
          message: toGitHubMarkdown(
            root(
              paragraph(
                `Task ${index + 1} (`,
                plain(task.title),
                `) depends on task ${dependency}, which this order runs after it.`,
              ),
            ),
          ),
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

/** The created issue's body, built as one tree: the plan's words are the model's, so they are untrusted text. */
export function renderPlannedIssueBody(
  entry: IssueToCreate,
  planCommentId: number,
  dependencyIssues: readonly number[],
): string {
  const criteria = list(
    entry.task.acceptanceCriteria.map((c) => untrustedInline(c.replace(/\s+/g, " ").trim())),
  );
  for (const item of criteria.children) item.checked = false;
  return toGitHubMarkdown(
    root(
      trustedHtml(plannedIssueMarker(planCommentId, entry.position)),
      untrustedMarkdown(entry.task.body.trim()),
      dependencyIssues.length > 0 &&
        paragraph(strong("Depends on:"), ` ${dependencyIssues.map((n) => `#${n}`).join(", ")}`),
      entry.task.acceptanceCriteria.length > 0 && [paragraph(strong("Acceptance criteria")), criteria],
      small(`Complexity: ${entry.task.complexity}. Planned by Locus.`),
    ),
  );
}
