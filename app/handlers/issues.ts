/**
 * issues.labeled (a `locus:*` status), issues.milestoned and issues.demilestoned. `locus:queued`
 * from a writer queues the issue. Any other status label, and a milestone,
 * steer what Locus runs too (the stale sweep retries failures, sprints run
 * their milestone's issues), so one set by someone without write access is
 * taken off again, silently, and acted on by nobody.
 */
import { isLocus } from "../../lib/github/locus-identity.ts";
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { assignOrder } from "../../lib/triggers/assign-order.ts";
import { authorize } from "../../lib/trust/authorize.ts";
import { classifyActor, type Actor } from "../../lib/trust/actor-policy.ts";
import { queueIssue } from "../../lib/triggers/queue-issue.ts";
import { mayReply, refusalKey, REFUSAL_WINDOW_MS } from "../../lib/app/reply-limits.ts";
import { statusLabel } from "../../lib/labels/schema.ts";
import { removeOrder } from "../../lib/triggers/remove-order.ts";
import { refuseLabel } from "../../lib/triggers/refuse-label.ts";

const QUEUED = statusLabel("queued");

function labelsOf(issue: { labels?: ReadonlyArray<{ name?: string } | null> | undefined }): string[] {
  return (issue.labels ?? []).flatMap((label) => (label?.name ? [label.name] : []));
}

export async function onIssueLabeled(ctx: AppContext, context: Context<"issues.labeled">): Promise<void> {
  const { issue, sender, label } = context.payload;
  if (label?.name !== QUEUED) {
    await undoUnauthorized(ctx, sender, `#${issue.number} labelled ${label?.name ?? ""}`, () =>
      refuseLabel(ctx, issue.number, label?.name ?? ""),
    );
    return;
  }
  const access = await authorize(ctx, sender);
  if (!access.ok) {
    ctx.log.debug(`#${issue.number} labelled queued, ignored: ${access.reason}`);
    // An unlisted bot's label is taken off too (silently), or the reconciler would later
    // find the issue queued with no run and dispatch it on the bot's say-so.
    const ignoredBot = classifyActor(sender, ctx.selfLogins, ctx.config.bots.allowed).kind === "ignored-bot";
    if (access.refusal || ignoredBot) {
      await refuseLabel(ctx, issue.number, QUEUED);
      const { owner, repo } = ctx.gateway.repo;
      const key = refusalKey(`${owner}/${repo}`, issue.number, sender.login);
      if (access.refusal && mayReply(ctx.replyLimits, key, REFUSAL_WINDOW_MS))
        await ctx.gateway.createComment(issue.number, access.refusal);
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
  if (isLocus(ctx.selfLogins, sender.login)) return;
  const undone = await undoUnauthorized(
    ctx,
    sender,
    `#${issue.number} put in milestone ${milestone.number}`,
    () => ctx.gateway.updateIssue(issue.number, { milestone: null }),
  );
  if (undone) return;
  await assignOrder(ctx, { number: issue.number, labels: labelsOf(issue) }, milestone.number);
}

/**
 * Takes back what someone without write access (or an unlisted bot) did, and
 * answers whether it did. Locus's own acts and writers' are left as they are.
 */
async function undoUnauthorized(
  ctx: AppContext,
  sender: Actor,
  what: string,
  undo: () => Promise<unknown>,
): Promise<boolean> {
  // With only GITHUB_TOKEN, the Action sets its status labels as the Actions bot: that is Locus too
  // (selfLogins has it), and only workflows of the repository (which writers control) act as it.
  const verdict = classifyActor(sender, ctx.selfLogins, ctx.config.bots.allowed);
  if (verdict.kind === "self") return false;
  const access = await authorize(ctx, sender);
  if (access.ok) return false;
  ctx.log.info(`${what} by ${sender.login}, taken back: ${access.reason}`);
  await undo();
  return true;
}

export async function onIssueDemilestoned(
  ctx: AppContext,
  context: Context<"issues.demilestoned">,
): Promise<void> {
  const { issue, sender } = context.payload;
  if (isLocus(ctx.selfLogins, sender.login)) return;
  await removeOrder(ctx, { number: issue.number, labels: labelsOf(issue) });
}
