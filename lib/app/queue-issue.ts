/**
 * Queue an issue for work: `locus:queued` by label or `/locus run`. A
 * standalone issue dispatches mode `issue`; an issue in a milestone runs its
 * sprint, which picks the issue up in order.
 */
import type { Issue } from "../github/index.ts";
import { statusLabel } from "../labels/schema.ts";
import { sameLabelSet, statusOf, transition } from "../labels/status.ts";
import type { AppContext } from "./app-context.ts";
import { dispatchOnce, readDeliveryRecord, type DispatchOutcome } from "./dispatch-once.ts";

export type QueueOutcome = DispatchOutcome | "refused";

const QUEUED = statusLabel("queued");

/**
 * `labels` are the issue's labels as the event shows them; when the user has
 * just added `locus:queued` it is already among them.
 */
export async function queueIssue(
  ctx: AppContext,
  issue: Pick<Issue, "number" | "labels" | "milestone" | "isPullRequest">,
): Promise<QueueOutcome> {
  if (issue.isPullRequest) {
    await ctx.gateway.createComment(
      issue.number,
      "Locus works on issues. On a pull request, use `/locus iterate` or `/locus review`.",
    );
    return "refused";
  }
  // A redelivered event stops here, before any write.
  const record = await readDeliveryRecord(ctx, issue.number);
  if (record.seen) return "duplicate";
  const before = issue.labels.filter((label) => label !== QUEUED);
  const result = transition(before, "queue");
  if (!result.ok) {
    if (!sameLabelSet(before, issue.labels)) await ctx.gateway.setLabels(issue.number, before);
    const status = statusOf(before);
    const why =
      status === "in-progress"
        ? "Locus is already working on it."
        : status === "queued"
          ? "It is already queued."
          : `It is \`${statusLabel(status ?? "queued")}\`; reopen the work by commenting \`/locus iterate\` on its pull request.`;
    await ctx.gateway.createComment(issue.number, `Not queued: ${why}`);
    return "refused";
  }
  if (!sameLabelSet(result.labels, issue.labels)) await ctx.gateway.setLabels(issue.number, result.labels);
  if (issue.milestone !== null) {
    return dispatchOnce(
      ctx,
      { mode: "sprint", milestone: issue.milestone },
      issue.number,
      "Queued; the sprint will run it in order.",
    );
  }
  return dispatchOnce(
    ctx,
    { mode: "issue", issues: [issue.number] },
    issue.number,
    "Queued; a workflow run will pick it up.",
  );
}
