/**
 * A milestone marked `locus: active`: queue its unfinished issues (giving
 * orders to any that lack one) and dispatch the sprint once. What each issue
 * becomes is the lifecycle's `sprint-activated` step; every label set that
 * changes goes out together through the lifecycle's applier (applyLabelSets:
 * one request per 50 label sets; over REST when an id is unknown). The label
 * changes are Locus's own events, so they trigger nothing further.
 */
import { orderLabel } from "../labels/schema.ts";
import { nextOrder, orderOf } from "../sprint/order.ts";
import { planSprint } from "../sprint/plan.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { step, taskState, type Effect } from "../lifecycle/lifecycle.ts";
import { applyLabelSets } from "../lifecycle/apply-effects.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce, type DispatchOutcome } from "../app/dispatch-once.ts";

export type ActivationOutcome = DispatchOutcome | "empty" | "missing";

export async function activateSprint(ctx: AppContext, milestone: number): Promise<ActivationOutcome> {
  const issues = await ctx.gateway.listMilestoneIssues(milestone);
  if (!issues) return "missing";
  let next = nextOrder(issues);
  const steps: { issue: (typeof issues)[number]; effects: readonly Effect[] }[] = [];
  const updated = [];
  for (const issue of issues) {
    const activated =
      issue.state === "open"
        ? step(taskState(issue.labels, EMPTY_STATE), { kind: "sprint-activated", order: next })
        : undefined;
    // Closed or completed work stays as it is.
    if (!activated || "refused" in activated) {
      updated.push(issue);
      continue;
    }
    // The step gave the issue the next order (it had none): its label exists before the write that sets it.
    if (orderOf(activated.state.labels) !== orderOf(issue.labels)) {
      await ctx.gateway.createLabel(orderLabel(next));
      next++;
    }
    steps.push({ issue, effects: activated.effects });
    updated.push({ ...issue, labels: [...activated.state.labels] });
  }
  await applyLabelSets(ctx.gateway, steps);
  const first = planSprint(updated).tasks[0];
  if (!first) return "empty";
  return dispatchOnce(
    ctx,
    { mode: "sprint", milestone },
    first.issue.number,
    "Sprint started; this task runs first.",
  );
}
