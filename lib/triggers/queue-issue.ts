/**
 * Queue an issue for work: `locus:queued` by label or `/locus run`. A
 * standalone issue dispatches mode `issue`; an issue in a milestone runs its
 * sprint, which picks the issue up in order.
 */
import type { Issue } from "../github/index.ts";
import { statusLabel } from "../labels/schema.ts";
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState, type TaskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce, readDeliveryRecord, type DispatchOutcome } from "../app/dispatch-once.ts";
import { withModelOption } from "../commands/model-option.ts";
import { replyToComment, type AnsweredComment } from "./reply-to-comment.ts";

export type QueueOutcome = DispatchOutcome | "refused";

const QUEUED = statusLabel("queued");

export interface QueueOptions {
  /** The trigger was the `locus:queued` label, which must then still be there. */
  readonly labelled?: boolean;
  /** The `/locus run` comment that asked: what Locus says about it is a reply to that comment. */
  readonly answering?: AnsweredComment;
  /** Who asked for the work (the labeller or commenter): a question the agent asks mentions them. */
  readonly requester?: string;
  /** `/locus run model=<id>`, already allowed by config: carried to the Action in `command`. */
  readonly model?: string;
}

async function tell(ctx: AppContext, issue: number, text: string, options: QueueOptions): Promise<void> {
  if (options.answering) await replyToComment(ctx, options.answering, text);
  else await ctx.gateway.createComment(issue, text);
}

/**
 * `issue` is the issue as the event showed it. Events arrive late and out of
 * order (the label may be gone, the issue closed by the time its `labeled`
 * event arrives), so the labels, state and milestone acted on are re-read
 * from GitHub.
 */
export async function queueIssue(
  ctx: AppContext,
  issue: Pick<Issue, "number" | "labels" | "milestone" | "isPullRequest">,
  options: QueueOptions = {},
): Promise<QueueOutcome> {
  if (issue.isPullRequest) {
    await tell(
      ctx,
      issue.number,
      "Locus works on issues. On a pull request, use `/locus iterate` or `/locus review`.",
      options,
    );
    return "refused";
  }
  // A redelivered event stops here, before any write.
  const record = await readDeliveryRecord(ctx, issue.number);
  if (record.seen) return "duplicate";
  const current = await ctx.gateway.getIssue(issue.number);
  if (!current || current.state !== "open") {
    ctx.log.info(`#${issue.number} is no longer open; not queued`);
    if (!options.labelled) await tell(ctx, issue.number, "Not queued: the issue is closed.", options);
    return "refused";
  }
  if (options.labelled && !current.labels.includes(QUEUED)) {
    ctx.log.info(
      `#${issue.number} no longer carries ${QUEUED}; the label was removed before its event arrived`,
    );
    return "refused";
  }
  return queueOpenIssue(ctx, current, taskState(current.labels, record.state), options);
}

async function queueOpenIssue(
  ctx: AppContext,
  issue: Pick<Issue, "number" | "nodeId" | "milestone">,
  task: TaskState,
  options: QueueOptions,
): Promise<QueueOutcome> {
  // The lifecycle holds the rules: what a request by label or by command queues, and why it may not.
  if (options.model !== undefined && issue.milestone !== null) {
    await tell(
      ctx,
      issue.number,
      "Not queued: `model=` is for a standalone issue; a sprint runs every issue on `agent.model`.",
      options,
    );
    return "refused";
  }
  const queued = step(task, { kind: "queue-requested", byLabel: options.labelled === true });
  const target = { gateway: ctx.gateway, issue, mask: (text: string) => text };
  if ("refused" in queued) {
    if (queued.undo) await applyEffects(target, queued.undo.effects);
    await tell(ctx, issue.number, `Not queued: ${queued.refused}`, options);
    return "refused";
  }
  await applyEffects(target, queued.effects);
  const remember = options.requester ? { requester: options.requester } : {};
  if (issue.milestone !== null) {
    return dispatchOnce(
      ctx,
      { mode: "sprint", milestone: issue.milestone },
      issue.number,
      "Queued; the sprint will run it in order.",
      undefined,
      remember,
    );
  }
  return dispatchOnce(
    ctx,
    { mode: "issue", issues: [issue.number], command: withModelOption(options.model, "") },
    issue.number,
    "Queued; a workflow run will pick it up.",
    undefined,
    remember,
  );
}
