/**
 * issue_comment.created: a `/locus` command, or a writer's answer on an issue
 * waiting for one. Other text causes no write at all, and so does a reply on
 * a waiting issue by someone who may not trigger work.
 */
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { authorize } from "../../lib/trust/authorize.ts";
import { answerQuestion } from "../../lib/triggers/answer-question.ts";
import { handleCommand, isReadOnlyCommand } from "../../lib/triggers/handle-command.ts";
import { usageReply } from "../../lib/app/replies.ts";
import { replyToComment, type AnsweredComment } from "../../lib/triggers/reply-to-comment.ts";
import { mayReply, refusalKey, REFUSAL_WINDOW_MS } from "../../lib/app/reply-limits.ts";
import { classifyActor } from "../../lib/trust/actor-policy.ts";
import { parseCommand } from "../../lib/commands/index.ts";

export async function onIssueComment(
  ctx: AppContext,
  context: Context<"issue_comment.created">,
): Promise<void> {
  const { comment, issue, sender } = context.payload;
  const parsed = parseCommand(comment.body);
  const actor = classifyActor(sender, ctx.selfLogins, ctx.config.bots.allowed);
  if (actor.kind === "self" || actor.kind === "ignored-bot") {
    ctx.log.debug(`comment ${comment.id} ignored: ${actor.reason}`);
    return;
  }
  if (parsed.kind === "none") {
    const access = await authorize(ctx, sender);
    if (!access.ok) {
      ctx.log.debug(`comment ${comment.id} on waiting #${issue.number} is no answer: ${access.reason}`);
      return;
    }
    await answerQuestion(ctx, {
      number: issue.number,
      isPullRequest: issue.pull_request !== undefined,
      requester: sender.login,
      explicit: false,
    });
    return;
  }
  const answered: AnsweredComment = { issue: issue.number, id: comment.id, createdAt: comment.created_at };
  const { owner, repo } = ctx.gateway.repo;
  // One refusal or usage reply per person per issue per hour; later ones get a reaction at most.
  const refuse = async (text: string) => {
    if (
      mayReply(ctx.replyLimits, refusalKey(`${owner}/${repo}`, issue.number, sender.login), REFUSAL_WINDOW_MS)
    )
      await replyToComment(ctx, answered, text);
    else await ctx.gateway.addReaction({ commentId: comment.id }, "confused").catch(() => undefined);
  };
  if (parsed.kind === "error") {
    await refuse(usageReply(parsed.message));
    return;
  }
  if (!isReadOnlyCommand(parsed.command)) {
    const access = await authorize(ctx, sender);
    if (!access.ok) {
      if (access.refusal) await refuse(access.refusal);
      return;
    }
  }
  await handleCommand(ctx, {
    command: parsed.command,
    notes: parsed.notes,
    comment: answered,
    requester: sender.login,
    target: {
      number: issue.number,
      isPullRequest: issue.pull_request !== undefined,
      labels: (issue.labels ?? []).map((label) => label.name),
      milestone: issue.milestone?.number ?? null,
    },
  });
}
