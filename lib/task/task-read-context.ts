/**
 * What a coding run takes from its one GitHub read besides the issues: when
 * it was triggered, where tasks start, and the daily cost budget.
 *
 * The run's trigger time is when GitHub created the workflow run
 * (GITHUB_RUN_ID): GitHub sets it, so whoever dispatched the run cannot choose
 * it, unlike any input. Every mode narrows it to the writer's act, no later
 * than this: a coding task's in its issue's timeline (task-trigger.ts), the
 * other modes' command, review or CI failure (command-trigger.ts).
 */
import { assertRefName } from "../git/ref-names.ts";
import type { RunAndSpend, TaskReadOptions } from "../github/index.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import type { ActionContext } from "./context.ts";
import { createDailyBudget, spentOn, utcDay, utcDayStart, type DailyBudget } from "../cost/daily-budget.ts";
import { selfLogins } from "../trust/self-logins.ts";

export interface RunFacts {
  readonly triggeredAt: Date;
  readonly baseBranch: string;
  readonly budget?: DailyBudget;
}

/** Options for the run's first read: the run's creation time, and the day's spend when a cap is set. */
export function firstReadOptions(ctx: Pick<ActionContext, "config" | "run" | "clock">): TaskReadOptions {
  const capped = ctx.config.agent.maxCostPerDayUsd !== undefined;
  return {
    managedLabel: MANAGED_LABEL,
    ...(ctx.run.url ? { runUrl: ctx.run.url } : {}),
    ...(capped ? { spendSince: utcDayStart(ctx.clock.now()) } : {}),
  };
}

export function runFacts(
  ctx: Pick<ActionContext, "config" | "run" | "clock" | "log" | "identity">,
  read: RunAndSpend,
): RunFacts {
  let triggeredAt: Date;
  if (read.runCreatedAt !== null) triggeredAt = new Date(read.runCreatedAt);
  else {
    triggeredAt = ctx.clock.now();
    ctx.log.warn(
      `GitHub did not say when workflow run ${ctx.run.id || "(no GITHUB_RUN_ID)"} was created, so text as it stands now (${triggeredAt.toISOString()}) counts as the trigger-time text.`,
    );
  }
  const cap = ctx.config.agent.maxCostPerDayUsd;
  const budget =
    cap === undefined
      ? undefined
      : createDailyBudget({
          capUsd: cap,
          spentBefore: spentOn(utcDay(ctx.clock.now()), read.spend ?? [], selfLogins(ctx)),
          now: () => ctx.clock.now(),
        });
  return {
    triggeredAt,
    baseBranch: assertRefName(ctx.config.baseBranch ?? read.defaultBranch),
    ...(budget ? { budget } : {}),
  };
}
