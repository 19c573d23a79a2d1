/**
 * A `/locus` comment, already parsed and from someone allowed to give it:
 * acknowledge at once with a reaction, then do the command. Every reply says
 * what happened; bad input changes nothing.
 */
import type { LocusCommand } from "../commands/index.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { AppContext } from "./app-context.ts";
import { answerQuestion } from "./answer-question.ts";
import { approvePlanCommand } from "./approve-plan-command.ts";
import { cancelCommand } from "./cancel-command.ts";
import { dispatchOnce } from "./dispatch-once.ts";
import { orderCommand } from "./order-command.ts";
import { queueIssue } from "./queue-issue.ts";
import { helpText } from "./replies.ts";
import { replyToComment, type AnsweredComment } from "./reply-to-comment.ts";
import { statusCommand } from "./status-command.ts";

export interface CommandTarget {
  readonly number: number;
  readonly isPullRequest: boolean;
  readonly labels: readonly string[];
  readonly milestone: number | null;
}

export interface CommandEvent {
  readonly command: LocusCommand;
  readonly notes: readonly string[];
  /** The comment that gave the command: reacted to, and named by the reply. */
  readonly comment: AnsweredComment;
  readonly requester: string;
  readonly target: CommandTarget;
}

/** Commands that only read: anyone who can comment may use them. */
export function isReadOnlyCommand(command: LocusCommand): boolean {
  return command.name === "help" || command.name === "status";
}

export async function handleCommand(ctx: AppContext, event: CommandEvent): Promise<void> {
  // The reaction is a courtesy: a comment deleted meanwhile must not stop the command.
  await ctx.gateway
    .addReaction({ commentId: event.comment.id }, "eyes")
    .catch((error: unknown) =>
      ctx.log.warn(`could not react to comment ${event.comment.id}: ${String(error)}`),
    );
  const reply = await run(ctx, event);
  const notes = event.notes.map((note) => `> ${note}`).join("\n");
  const text = [reply, notes].filter(Boolean).join("\n\n");
  if (text) await replyToComment(ctx, event.comment, text);
}

async function run(ctx: AppContext, event: CommandEvent): Promise<string | undefined> {
  const { command, target } = event;
  switch (command.name) {
    case "help":
      return helpText();
    case "status":
      return statusCommand(ctx, target);
    case "run":
      await queueIssue(
        ctx,
        { ...target, labels: [...target.labels] },
        { answering: event.comment, requester: event.requester },
      );
      return undefined;
    case "answer": {
      const outcome = await answerQuestion(ctx, {
        number: target.number,
        isPullRequest: target.isPullRequest,
        requester: event.requester,
        explicit: true,
      });
      return outcome.kind === "not-waiting" ? outcome.reply : undefined;
    }
    case "plan":
      if (target.isPullRequest) return "Plans are made on issues: comment `/locus plan <goal>` on an issue.";
      await dispatchOnce(
        ctx,
        { mode: "plan", issues: [target.number], command: command.goal },
        target.number,
        "Planning…",
      );
      return undefined;
    case "ask": {
      const request = target.isPullRequest ? { pr: target.number } : { issues: [target.number] };
      await dispatchOnce(
        ctx,
        { mode: "ask", ...request, command: command.question },
        target.number,
        "Looking into your question…",
      );
      return undefined;
    }
    case "approve":
      if (target.isPullRequest) return "`/locus approve` answers a plan on an issue.";
      return approvePlanCommand(ctx, target.number, command.sequence);
    case "order":
      return orderCommand(ctx, target, command.issues);
    case "cancel":
      return cancelCommand(ctx, target, event.requester);
    case "iterate":
    case "review":
      return pullRequestCommand(ctx, event, command.name === "iterate" ? command.note : "");
  }
}

async function pullRequestCommand(
  ctx: AppContext,
  event: CommandEvent,
  note: string,
): Promise<string | undefined> {
  const { command, target } = event;
  if (!target.isPullRequest) return `\`/locus ${command.name}\` works on a pull request; this is an issue.`;
  if (command.name === "review") {
    await dispatchOnce(ctx, { mode: "review", pr: target.number }, target.number, "Reviewing…");
    return undefined;
  }
  const pr = await ctx.gateway.getPullRequest(target.number);
  const issue = pr ? issueOfBranch(pr.head.ref) : undefined;
  if (!pr || issue === undefined)
    return "`/locus iterate` works on pull requests Locus opened (branch `locus/issue-<N>`).";
  if (pr.state !== "open") return "This pull request is closed; reopen it to iterate.";
  await dispatchOnce(
    ctx,
    { mode: "iterate", pr: pr.number, command: note },
    issue,
    `Addressing feedback on #${pr.number}…`,
  );
  return undefined;
}
