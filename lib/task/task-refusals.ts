/**
 * Why a task that may start is still not started: over the daily cost cap, or
 * a model with no price. The cap is no failure (nothing ran, no attempt is
 * counted, no work exists to lose) and is said once a UTC day; the stale sweep
 * starts the task on a later day. An unpriced model clears the status until a
 * person fixes the config.
 */
import type { TaskEvent } from "../lifecycle/lifecycle.ts";
import type { ActionContext } from "./context.ts";
import type { DailyBudget } from "../cost/daily-budget.ts";
import { unpricedModelRefusal } from "../cost/unpriced-model.ts";

export function startRefusal(
  ctx: Pick<ActionContext, "clock" | "runner" | "model" | "config">,
  budget: DailyBudget | undefined,
): Extract<TaskEvent, { kind: "over-budget" | "unpriced-refused" }> | undefined {
  return budget && budget.remaining() <= 0
    ? { kind: "over-budget", reason: budget.refusal(), at: ctx.clock.now() }
    : unpricedRefusal(ctx);
}

function unpricedRefusal(
  ctx: Pick<ActionContext, "runner" | "model" | "config">,
): Extract<TaskEvent, { kind: "unpriced-refused" }> | undefined {
  const reason = unpricedModelRefusal(ctx.runner.name, ctx.model, ctx.config.agent.pricing);
  return reason === undefined ? undefined : { kind: "unpriced-refused", reason };
}
