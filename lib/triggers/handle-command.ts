/**
 * A `/locus` comment, already parsed and from someone allowed to give it:
 * acknowledge at once with a reaction, then do the command. Every reply says
 * what happened; bad input changes nothing.
 */
import { isLocus } from "../github/locus-identity.ts";
import type { LocusCommand } from "../commands/index.ts";
import type { PullRequest } from "../github/index.ts";
import { pullRequestOwner, type PullRequestCommandName } from "../pull-request/pull-request-owner.ts";
import type { AppContext } from "../app/app-context.ts";
import { withModelOption } from "../commands/model-option.ts";
import { modelChoiceRefusal, type ModelChoiceConfig } from "../cost/model-choice.ts";
import { answerQuestion } from "./answer-question.ts";
import { approvePlanCommand } from "./approve-plan-command.ts";
import { cancelCommand } from "./cancel-command.ts";
import { fixCiCommand } from "./ci-failure-events.ts";
import { dispatchOnce } from "../app/dispatch-once.ts";
import { orderCommand } from "./order-command.ts";
import { queueIssue } from "./queue-issue.ts";
import { helpText } from "../app/replies.ts";
import { mayReply, readOnlyKey, READ_ONLY_WINDOW_MS } from "../app/reply-limits.ts";
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
  if (isReadOnlyCommand(event.command)) {
    // One help or status answer per thread per window: the reaction above acknowledges the rest.
    const { owner, repo } = ctx.gateway.repo;
    const key = readOnlyKey(`${owner}/${repo}`, event.target.number, event.command.name);
    if (!mayReply(ctx.replyLimits, key, READ_ONLY_WINDOW_MS)) return;
  }
  const reply = await run(ctx, event);
  // The other command lines are the user's text: said to exist, never quoted back.
  const notes =
    event.notes.length > 0
      ? "Only the first `/locus` command in a comment is run; the other command lines were ignored."
      : "";
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
    case "run": {
      const refused = refuseModel(ctx.config.agent, command.model, "`/locus run`");
      if (refused !== undefined) return refused;
      await queueIssue(
        ctx,
        { ...target, labels: [...target.labels] },
        { answering: event.comment, requester: event.requester, model: command.model },
      );
      return undefined;
    }
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
    case "iterate": {
      const refused = refuseModel(ctx.config.agent, command.model, "`/locus iterate`");
      if (refused !== undefined) return refused;
      return pullRequestCommand(ctx, event, withModelOption(command.model, command.note));
    }
    case "review":
      return pullRequestCommand(ctx, event, "");
    case "fix-ci":
    case "rebase":
      return locusPullRequestCommand(ctx, event);
  }
}

/** A `model=<id>` the repository does not allow: the one reply, before anything is dispatched. */
function refuseModel(
  agent: ModelChoiceConfig,
  model: string | undefined,
  askAgain: string,
): string | undefined {
  if (model === undefined) return undefined;
  const reason = modelChoiceRefusal(model, agent, askAgain);
  return reason === undefined ? undefined : `Not started: ${reason}`;
}

/** `/locus fix-ci` and `/locus rebase`: on an open pull request Locus may work on. */
async function locusPullRequestCommand(ctx: AppContext, event: CommandEvent): Promise<string | undefined> {
  const { command, target } = event;
  if (!target.isPullRequest) return `\`/locus ${command.name}\` works on a pull request; this is an issue.`;
  const found = await pullRequestToWorkOn(
    ctx,
    target.number,
    command.name === "fix-ci" ? "fix-ci" : "rebase",
  );
  if (typeof found === "string") return found;
  const { pr, issue } = found;
  if (command.name === "fix-ci") await fixCiCommand(ctx, pr, issue);
  else await dispatchOnce(ctx, { mode: "rebase", pr: pr.number }, issue, `Rebasing PR #${pr.number}…`);
  return undefined;
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
  const found = await pullRequestToWorkOn(ctx, target.number, "iterate");
  if (typeof found === "string") return found;
  await dispatchOnce(
    ctx,
    { mode: "iterate", pr: found.pr.number, command: note },
    found.issue,
    `Addressing feedback on #${found.pr.number}…`,
  );
  return undefined;
}

/** The open PR and the issue its status lives on, or the reply saying why Locus will not work on it. */
async function pullRequestToWorkOn(
  ctx: Pick<AppContext, "gateway" | "selfLogins" | "config">,
  number: number,
  command: PullRequestCommandName,
): Promise<{ pr: PullRequest; issue: number } | string> {
  const pr = await ctx.gateway.getPullRequest(number);
  if (!pr) return `\`/locus ${command}\` found no pull request #${number}.`;
  const owner = pullRequestOwner({
    command,
    openedByLocus: isLocus(ctx.selfLogins, pr.author),
    headRef: pr.head.ref,
    fromFork: pr.fromFork ?? false,
    humanPrs: ctx.config.pr.humanPrs,
  });
  if (owner.kind === "refused") return owner.reply;
  if (pr.state !== "open") return `This pull request is closed; reopen it first.`;
  // No task issue on a person's PR (iterate, fix-ci): the dispatch is recorded on the PR itself, as a review's is.
  if (owner.kind === "person") return { pr, issue: pr.number };
  return { pr, issue: owner.issue };
}
