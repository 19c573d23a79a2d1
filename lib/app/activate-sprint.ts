/**
 * A milestone marked `locus: active`: queue its unfinished issues (giving
 * orders to any that lack one) and dispatch the sprint once. The label
 * changes are Locus's own events, so they trigger nothing further.
 */
import { orderLabel } from "../labels/schema.ts";
import { isCompleted, sameLabelSet, statusOf, transition } from "../labels/status.ts";
import { nextOrder, orderOf, withOrder } from "../sprint/order.ts";
import { planSprint } from "../sprint/plan.ts";
import type { AppContext } from "./app-context.ts";
import { dispatchOnce, type DispatchOutcome } from "./dispatch-once.ts";

export type ActivationOutcome = DispatchOutcome | "empty" | "missing";

export async function activateSprint(ctx: AppContext, milestone: number): Promise<ActivationOutcome> {
  const issues = await ctx.gateway.listMilestoneIssues(milestone);
  if (!issues) return "missing";
  let next = nextOrder(issues);
  const updated = [];
  for (const issue of issues) {
    const status = statusOf(issue.labels);
    if (issue.state !== "open" || isCompleted(status)) {
      updated.push(issue);
      continue;
    }
    let labels = issue.labels;
    if (orderOf(labels) === undefined) {
      await ctx.gateway.createLabel(orderLabel(next));
      labels = withOrder(labels, next++);
    }
    const queued =
      status === "queued" || status === "in-progress" ? { ok: false as const } : transition(labels, "queue");
    if (queued.ok) labels = queued.labels;
    if (!sameLabelSet(labels, issue.labels)) await ctx.gateway.setLabels(issue.number, labels);
    updated.push({ ...issue, labels });
  }
  const first = planSprint(updated).tasks[0];
  if (!first) return "empty";
  return dispatchOnce(
    ctx,
    { mode: "sprint", milestone },
    first.issue.number,
    "Sprint started; this task runs first.",
  );
}
