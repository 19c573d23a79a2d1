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
import { EMPTY_STATE, hasDelivery, withDelivery } from "../status/status-comment.ts";
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "./app-context.ts";
import { readStatusRecord, writeStatus, type StatusRecord } from "../status/status-store.ts";

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
  /** Who asked for the work, remembered so a question the agent asks mentions them. */
  remember: { readonly requester?: string } = {},
): Promise<DispatchOutcome> {
  const record = known ?? (await readStatusRecord(ctx.gateway, anchorIssue));
  if (actedOn(ctx, record)) {
    ctx.log.info(`delivery ${ctx.delivery} already dispatched for #${anchorIssue}; ignoring the redelivery`);
    return "duplicate";
  }
  const inputs = dispatchInputs({ ...request, delivery: ctx.delivery });
  if (inputs.command.length > MAX_COMMAND_CHARS) {
    await refuse(ctx, anchorIssue, record, commandTooLongText(inputs.command.length));
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
    await refuse(ctx, anchorIssue, record, text);
    return "refused";
  }
  // The link is there from the first write on when GitHub named the run. Without
  // it (a 204) an earlier run's link would mislead, so it goes until the new run
  // writes its own.
  const delivered = withDelivery(record.state, ctx.delivery);
  const state = {
    ...(ctx.bodyKey ? withDelivery(delivered, ctx.bodyKey) : delivered),
    runUrl: run?.url,
    // The requester was checked for write access for this delivery: its run may take that check as its own.
    ...(remember.requester ? { requester: remember.requester, requesterDelivery: ctx.delivery } : {}),
  };
  await writeStatus(ctx.gateway, anchorIssue, { headline }, state, record);
  return "dispatched";
}

/** Tells the refusal in the status comment (recording the delivery) and fails a queued issue. */
async function refuse(
  ctx: AppContext,
  anchorIssue: number,
  record: StatusRecord,
  text: string,
): Promise<void> {
  await writeStatus(
    ctx.gateway,
    anchorIssue,
    { headline: text },
    withDelivery(record.state, ctx.delivery),
    record,
  );
  const issue = await ctx.gateway.getIssue(anchorIssue);
  if (!issue || issue.isPullRequest) return;
  const failed = step(taskState(issue.labels, EMPTY_STATE), { kind: "dispatch-refused" });
  if (!("refused" in failed))
    await applyEffects({ gateway: ctx.gateway, issue, mask: (text) => text }, failed.effects);
}
