/**
 * Why a task that may start is still not started: over the daily cost cap, or
 * a model with no price (or, chosen by `model=`, one config does not allow). The cap is no failure (nothing ran, no attempt is
 * counted, no work exists to lose) and is said once a UTC day; the stale sweep
 * starts the task on a later day. An unpriced model clears the status until a
 * person fixes the config.
 */
import type { TaskEvent } from "../lifecycle/lifecycle.ts";
import type { ActionContext } from "./context.ts";
import type { DailyBudget } from "../cost/daily-budget.ts";
import { taskModelRefusal } from "../cost/model-choice.ts";

export function startRefusal(
  ctx: Pick<ActionContext, "clock" | "runner" | "model" | "modelChosen" | "config">,
  budget: DailyBudget | undefined,
): Extract<TaskEvent, { kind: "over-budget" | "unpriced-refused" }> | undefined {
  return budget && budget.remaining() <= 0
    ? { kind: "over-budget", reason: budget.refusal(), at: ctx.clock.now() }
    : unpricedRefusal(ctx);
}

function unpricedRefusal(
  ctx: Pick<ActionContext, "runner" | "model" | "modelChosen" | "config">,
): Extract<TaskEvent, { kind: "unpriced-refused" }> | undefined {
  const reason = taskModelRefusal(ctx.model, ctx.modelChosen === true, {
    ...ctx.config.agent,
    provider: ctx.runner.name,
  });
  return reason === undefined ? undefined : { kind: "unpriced-refused", reason };
}
