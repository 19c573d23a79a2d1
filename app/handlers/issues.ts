/** issues.labeled (`locus:queued`), issues.milestoned and issues.demilestoned. */
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { assignOrder } from "../../lib/app/assign-order.ts";
import { authorize } from "../../lib/app/authorize.ts";
import { classifyActor } from "../../lib/auth/actor-policy.ts";
import { queueIssue } from "../../lib/app/queue-issue.ts";
import { statusLabel } from "../../lib/labels/schema.ts";
import { removeOrder } from "../../lib/app/remove-order.ts";

const QUEUED = statusLabel("queued");

function labelsOf(issue: { labels?: ReadonlyArray<{ name?: string } | null> | undefined }): string[] {
  return (issue.labels ?? []).flatMap((label) => (label?.name ? [label.name] : []));
}

export async function onIssueLabeled(ctx: AppContext, context: Context<"issues.labeled">): Promise<void> {
  const { issue, sender } = context.payload;
  const access = await authorize(ctx, sender);
  if (!access.ok) {
    ctx.log.debug(`#${issue.number} labelled queued, ignored: ${access.reason}`);
    // An unlisted bot's label is taken off too (silently), or the reconciler would later
    // find the issue queued with no run and dispatch it on the bot's say-so.
    const ignoredBot = classifyActor(sender, ctx.selfLogins, ctx.config.bots.allowed).kind === "ignored-bot";
    if (access.refusal || ignoredBot) {
      await ctx.gateway.setLabels(
        issue.number,
        labelsOf(issue).filter((name) => name !== QUEUED),
      );
      if (access.refusal) await ctx.gateway.createComment(issue.number, access.refusal);
    }
    return;
  }
  await queueIssue(
    ctx,
    {
      number: issue.number,
      labels: labelsOf(issue),
      milestone: issue.milestone?.number ?? null,
      isPullRequest: "pull_request" in issue && issue.pull_request !== undefined,
    },
    { labelled: true, requester: sender.login },
  );
}

export async function onIssueMilestoned(
  ctx: AppContext,
  context: Context<"issues.milestoned">,
): Promise<void> {
  const { issue, milestone, sender } = context.payload;
  if (ctx.selfLogins.includes(sender.login)) return;
  await assignOrder(ctx, { number: issue.number, labels: labelsOf(issue) }, milestone.number);
}

export async function onIssueDemilestoned(
  ctx: AppContext,
  context: Context<"issues.demilestoned">,
): Promise<void> {
  const { issue, sender } = context.payload;
  if (ctx.selfLogins.includes(sender.login)) return;
  await removeOrder(ctx, { number: issue.number, labels: labelsOf(issue) });
}
