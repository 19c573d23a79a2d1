/**
 * Exactly-once dispatch across restarts and replicas: the delivery id is
 * looked up in the anchor issue's status comment before dispatching and
 * recorded there after, so a redelivered event finds it and does nothing.
 * A dispatch GitHub refuses for good is told there once, recorded the same
 * way, and its queued issue marked failed, so nothing sends it again.
 */
import { dispatchInputs, type DispatchRequest } from "../dispatch/dispatch-inputs.ts";
import { commandTooLongText, MAX_COMMAND_CHARS, refusalText } from "../dispatch/dispatch-refusal.ts";
import { isGitHubError } from "../github/index.ts";
import type { CiFixState } from "../status/status-comment.ts";
import { EMPTY_STATE, hasDelivery } from "../status/status-comment.ts";
import { advanceTask, applyEffects, statusTarget } from "../lifecycle/apply-effects.ts";
import { step, taskState, type TaskEvent } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "./app-context.ts";
import { readStatusRecord, type StatusRecord } from "../status/status-store.ts";

export type DispatchOutcome = "dispatched" | "duplicate" | "refused";

/** Whether this delivery, or the same signed body under another delivery id, was acted on already. */
function actedOn(ctx: AppContext, record: StatusRecord): boolean {
  return (
    hasDelivery(record.state, ctx.delivery) ||
    (ctx.bodyKey !== undefined && hasDelivery(record.state, ctx.bodyKey))
  );
}

/** Whether this delivery was already acted on for the anchor issue; the record read is reused for the dispatch. */
export async function readDeliveryRecord(
  ctx: AppContext,
  anchorIssue: number,
): Promise<StatusRecord & { seen: boolean }> {
  const record = await readStatusRecord(ctx.gateway, anchorIssue);
  return { ...record, seen: actedOn(ctx, record) };
}

export async function dispatchOnce(
  ctx: AppContext,
  request: Omit<DispatchRequest, "delivery">,
  anchorIssue: number,
  headline: string,
  known?: StatusRecord,
  /**
   * Who asked for the work, remembered so a question the agent asks mentions them; the CI-fix streak
   * this dispatch continues.
   */
  remember: { readonly requester?: string; readonly ci?: CiFixState } = {},
): Promise<DispatchOutcome> {
  const record = known ?? (await readStatusRecord(ctx.gateway, anchorIssue));
  if (actedOn(ctx, record)) {
    ctx.log.info(`delivery ${ctx.delivery} already dispatched for #${anchorIssue}; ignoring the redelivery`);
    return "duplicate";
  }
  const inputs = dispatchInputs({ ...request, delivery: ctx.delivery });
  if (inputs.command.length > MAX_COMMAND_CHARS) {
    await refuse(ctx, anchorIssue, record, commandTooLongText(inputs.command.length), remember.ci);
    return "refused";
  }
  let run;
  try {
    run = await ctx.gateway.dispatchWorkflow(ctx.config.workflow, ctx.defaultBranch, inputs);
  } catch (error) {
    const text =
      isGitHubError(error) && error.detail !== undefined
        ? refusalText({ status: error.status, detail: error.detail }, ctx.config.workflow, ctx.defaultBranch)
        : undefined;
    if (text === undefined) throw error;
    ctx.log.warn(`dispatch for #${anchorIssue} refused: ${error instanceof Error ? error.message : ""}`);
    await refuse(ctx, anchorIssue, record, text, remember.ci);
    return "refused";
  }
  // The link is there from the first write on when GitHub named the run. Without
  // it (a 204) an earlier run's link would mislead, so it goes until the new run
  // writes its own.
  await recordDispatch(ctx, anchorIssue, record, {
    kind: "dispatch-recorded",
    headline,
    deliveries: ctx.bodyKey ? [ctx.delivery, ctx.bodyKey] : [ctx.delivery],
    runUrl: run?.url ?? null,
    requester: remember.requester,
    ci: remember.ci,
  });
  return "dispatched";
}

/** The dispatch recorded in the anchor issue's status comment (the lifecycle's `dispatch-recorded`). */
async function recordDispatch(
  ctx: AppContext,
  anchorIssue: number,
  known: StatusRecord,
  event: Extract<TaskEvent, { kind: "dispatch-recorded" }>,
): Promise<void> {
  await advanceTask(
    statusTarget(ctx.gateway, { number: anchorIssue }, known),
    taskState([], known.state),
    event,
  );
}

/** Tells the refusal in the status comment (recording the delivery) and fails a queued issue. */
async function refuse(
  ctx: AppContext,
  anchorIssue: number,
  record: StatusRecord,
  text: string,
  ci: CiFixState | undefined,
): Promise<void> {
  await recordDispatch(ctx, anchorIssue, record, {
    kind: "dispatch-recorded",
    headline: text,
    deliveries: [ctx.delivery],
    ci,
  });
  const issue = await ctx.gateway.getIssue(anchorIssue);
  if (!issue || issue.isPullRequest) return;
  const failed = step(taskState(issue.labels, EMPTY_STATE), { kind: "dispatch-refused" });
  if (!("refused" in failed))
    await applyEffects({ gateway: ctx.gateway, issue, mask: (text) => text }, failed.effects);
}
