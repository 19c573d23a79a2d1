/**
 * A writer answers the question a waiting task asked: any comment of theirs on
 * the `locus:waiting` issue, or `/locus answer <text>`. The issue goes back to
 * `queued` and its work is dispatched again (its sprint, for an issue in a
 * milestone); the run finds the question in the status comment and the answer
 * in the thread. A plain comment that is no answer (the issue is not waiting)
 * gets no reply at all; `/locus answer` always gets one.
 */
import { EMPTY_STATE } from "../status/status-comment.ts";
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce, readDeliveryRecord, type DispatchOutcome } from "../app/dispatch-once.ts";
import { refreshDashboard } from "./refresh-dashboard.ts";

export interface AnswerEvent {
  readonly number: number;
  readonly isPullRequest: boolean;
  /** Who answered: the next question mentions them. */
  readonly requester: string;
  /** `/locus answer` (a reply is owed) rather than a plain comment. */
  readonly explicit: boolean;
}

export type AnswerOutcome =
  | { readonly kind: "queued"; readonly dispatch: DispatchOutcome }
  | { readonly kind: "not-waiting"; readonly reply?: string };

export async function answerQuestion(ctx: AppContext, event: AnswerEvent): Promise<AnswerOutcome> {
  const refuse = (reply: string): AnswerOutcome =>
    event.explicit ? { kind: "not-waiting", reply } : { kind: "not-waiting" };
  if (event.isPullRequest) return refuse("`/locus answer` answers a question Locus asked on an issue.");
  const record = await readDeliveryRecord(ctx, event.number);
  if (record.seen) return { kind: "queued", dispatch: "duplicate" };
  // The event's labels may be stale: another answer may have queued it already.
  const issue = await ctx.gateway.getIssue(event.number);
  if (!issue || issue.state !== "open") return refuse("Nothing to answer: the issue is closed.");
  const answering = step(taskState(issue.labels, EMPTY_STATE), { kind: "answered", by: event.requester });
  if ("refused" in answering) {
    return refuse(
      "Nothing here is waiting for an answer: Locus asks its questions on issues labelled `locus:waiting`.",
    );
  }
  // Only the labels: the dispatch below writes the status comment, with the answerer as requester.
  await applyEffects({ gateway: ctx.gateway, issue, mask: (text) => text }, answering.effects);
  const headline = `Answered by @${event.requester}; Locus continues from its saved work.`;
  const dispatch =
    issue.milestone === null
      ? await dispatchOnce(ctx, { mode: "issue", issues: [event.number] }, event.number, headline, record, {
          requester: event.requester,
        })
      : await dispatchOnce(
          ctx,
          { mode: "sprint", milestone: issue.milestone },
          event.number,
          headline,
          record,
          {
            requester: event.requester,
          },
        );
  await refreshDashboard(ctx, issue.milestone);
  return { kind: "queued", dispatch };
}
