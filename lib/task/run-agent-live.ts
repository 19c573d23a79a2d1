/**
 * Runs a task's agent while its status comment follows along (the current
 * tool, throttled; see live-status.ts), under the run's turn and cost limits.
 * Resolves only once the last live edit has settled, so the status the caller
 * writes next is always the final word.
 */
import type { ExecuteOptions, RunnerPrompt, RunResult } from "../agent/runner.ts";
import type { StatusDetail, StatusView } from "../status/status-comment.ts";
import type { AgentRunContext } from "./context.ts";
import { costLimit, type DailyBudget } from "../cost/daily-budget.ts";
import { createLiveStatus } from "./live-status.ts";
import type { EventRecorder } from "./tool-cards.ts";

export interface LiveAgentRun {
  /** The log group's name. */
  readonly title: string;
  readonly prompt: RunnerPrompt;
  readonly cwd: string;
  readonly recorder: EventRecorder;
  readonly writeStatus: (view: StatusView) => Promise<unknown>;
  readonly budget: DailyBudget | undefined;
  /** When the status comment was last written, if just now: the first tool edit then waits its interval. */
  readonly lastWriteAt?: number;
  /** Tools of this mode only (see ExecuteOptions.tools). */
  readonly tools?: ExecuteOptions["tools"];
  /** Lines the live status keeps under its headline while the agent runs. */
  readonly details?: readonly StatusDetail[];
}

export async function runAgentLive(ctx: AgentRunContext, run: LiveAgentRun): Promise<RunResult> {
  const live = createLiveStatus({
    write: run.writeStatus,
    clock: ctx.clock,
    cwd: run.cwd,
    mask: ctx.mask,
    warn: (message) => ctx.log.warn(message),
    ...(run.lastWriteAt === undefined ? {} : { lastWriteAt: run.lastWriteAt }),
    ...(run.details ? { details: run.details } : {}),
  });
  try {
    return await ctx.log.group(run.title, () =>
      ctx.runner.execute({
        prompt: run.prompt,
        cwd: run.cwd,
        model: ctx.model,
        maxTurns: ctx.maxTurns,
        signal: ctx.signal,
        onEvent: (event) => {
          run.recorder.onEvent(event);
          live.onEvent(event);
        },
        maxCostUsd: costLimit(ctx.config.agent.maxCostUsd, run.budget),
        ...(run.tools ? { tools: run.tools } : {}),
        ...(ctx.config.agent.pricing ? { prices: ctx.config.agent.pricing } : {}),
      }),
    );
  } finally {
    await live.close();
  }
}
