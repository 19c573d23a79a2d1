/**
 * A milestone marked `locus: active`: queue its unfinished issues (giving
 * orders to any that lack one) and dispatch the sprint once. What each issue
 * becomes is the lifecycle's `sprint-activated` step; every label set that
 * changes goes out in one request (gateway.writeMoment, 50 label sets at a
 * time; over REST when an id is unknown). The label changes are Locus's own events, so they trigger
 * nothing further.
 */
import { labelWrite, type MomentWrite } from "../github/index.ts";
import { orderLabel } from "../labels/schema.ts";
import { nextOrder, orderOf } from "../sprint/order.ts";
import { planSprint } from "../sprint/plan.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce, type DispatchOutcome } from "../app/dispatch-once.ts";

/**
 * Label sets per request: a large milestone's writes go in several, so no one request nears
 * GitHub's time limit for a GraphQL call (docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#timeouts).
 */
const WRITES_PER_REQUEST = 50;

export type ActivationOutcome = DispatchOutcome | "empty" | "missing";

export async function activateSprint(ctx: AppContext, milestone: number): Promise<ActivationOutcome> {
  const issues = await ctx.gateway.listMilestoneIssues(milestone);
  if (!issues) return "missing";
  let next = nextOrder(issues);
  const writes: MomentWrite[] = [];
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
    for (const effect of activated.effects)
      if (effect.kind === "labels") writes.push(labelWrite(issue, effect.labels));
    updated.push({ ...issue, labels: [...activated.state.labels] });
  }
  for (let start = 0; start < writes.length; start += WRITES_PER_REQUEST) {
    await ctx.gateway.writeMoment(writes.slice(start, start + WRITES_PER_REQUEST));
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
