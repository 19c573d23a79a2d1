/**
 * Exactly-once dispatch across restarts and replicas: the delivery id is
 * looked up in the anchor issue's status comment before dispatching and
 * recorded there after, so a redelivered event finds it and does nothing.
 */
import { dispatchInputs, type DispatchRequest } from "../dispatch/dispatch-inputs.ts";
import { hasDelivery, withDelivery } from "../status/status-comment.ts";
import type { AppContext } from "./app-context.ts";
import { readStatusRecord, writeStatus, type StatusRecord } from "../status/status-store.ts";

export type DispatchOutcome = "dispatched" | "duplicate";

/** Whether this delivery was already acted on for the anchor issue; the record read is reused for the dispatch. */
export async function readDeliveryRecord(
  ctx: AppContext,
  anchorIssue: number,
): Promise<StatusRecord & { seen: boolean }> {
  const record = await readStatusRecord(ctx.gateway, anchorIssue);
  return { ...record, seen: hasDelivery(record.state, ctx.delivery) };
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
  if (hasDelivery(record.state, ctx.delivery)) {
    ctx.log.info(`delivery ${ctx.delivery} already dispatched for #${anchorIssue}; ignoring the redelivery`);
    return "duplicate";
  }
  const inputs = dispatchInputs({ ...request, delivery: ctx.delivery });
  const run = await ctx.gateway.dispatchWorkflow(ctx.config.workflow, ctx.defaultBranch, inputs);
  // The link is there from the first write on when GitHub named the run. Without
  // it (a 204) an earlier run's link would mislead, so it goes until the new run
  // writes its own.
  const state = {
    ...withDelivery(record.state, ctx.delivery),
    runUrl: run?.url,
    ...(remember.requester ? { requester: remember.requester } : {}),
  };
  await writeStatus(ctx.gateway, anchorIssue, { headline }, state, record);
  return "dispatched";
}
