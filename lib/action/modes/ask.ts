/**
 * Mode `ask`: a read-only agent answers a question in the thread it was asked
 * in — at the base branch for an issue, at the head for a pull request —
 * citing files and lines, which Locus turns into permalinks at the commit the
 * agent read. The thread's earlier Locus answers (each recording its
 * question) are the conversation the question continues. The thread is read
 * once, as it stood when the run was triggered; past the daily cost cap the
 * reply says so and no model is asked.
 */
import { parseCommand } from "../../commands/index.ts";
import type { TaskThread } from "../../github/index.ts";
import { renderAnswerComment } from "../../ask/answer-comment.ts";
import { linkCitations } from "../../ask/citations.ts";
import { earlierExchanges, renderConversation } from "../../ask/conversation.ts";
import { truncateHead } from "../../prompt/budget.ts";
import { quoteUntrusted, sanitizeUntrusted } from "../../prompt/sanitize.ts";
import { BUDGETS, renderIssue } from "../../prompt/task-prompt.ts";
import type { ActionContext } from "../../task/context.ts";
import { commandTrigger } from "../../trust/command-trigger.ts";
import { commentAuthors, promptIssueAtTrigger } from "../../task/prompt-issue.ts";
import { commandActs } from "../../trust/trigger-act.ts";
import { createWriters } from "../../trust/writers.ts";
import type { CommentTrust } from "../../trust/comment-trust.ts";
import {
  checkoutForReading,
  refusalOverBudget,
  runReadOnlyAgent,
  UNTRUSTED_RULE,
} from "../../task/read-only-agent.ts";
import { firstReadOptions, runFacts } from "../../task/task-read-context.ts";
import { itemAtTrigger } from "../../trust/text-at-trigger.ts";
import { selfLogins } from "../../trust/self-logins.ts";
import { startReadOnlyStatus } from "../../task/read-only-status.ts";
import type { ModeResult } from "../../task/task-report.ts";

const DIFF_BUDGET = 30_000;

const RULES = [
  "You are Locus, answering a question about this repository in a GitHub thread. You can read the repository but not change it.",
  "Look the answer up in the code (list_files, search_text, read_file) rather than guessing, and say so when the code does not settle it.",
  "Cite the code you rely on as `path:line` or `path:start-end` (paths from the repository root); Locus turns these into links to the exact lines.",
  "The question may continue the conversation shown in the task: answer the latest question in that light.",
  "Give your answer, in GitHub markdown, as the summary of the finish tool; it is posted as is.",
  UNTRUSTED_RULE,
];

/** The thread as context: its description and discussion, without commands (the questions come separately). */
function renderThread(thread: TaskThread, triggeredAt: Date, trust: CommentTrust): string {
  const issue = promptIssueAtTrigger(thread, triggeredAt, trust);
  const discussion = issue.comments.filter((comment) => parseCommand(comment.body).kind === "none");
  return renderIssue({ ...issue, comments: discussion });
}

export async function runAskMode(
  ctx: ActionContext,
  target: { readonly issue?: number; readonly pr?: number },
): Promise<ModeResult> {
  const { gateway } = ctx;
  const number = target.pr ?? target.issue ?? 0;
  const question = sanitizeUntrusted(ctx.command).trim();
  const read = await gateway.readThread(number, firstReadOptions(ctx));
  const thread = read.thread;
  if (!thread) return { tasks: [], note: `#${number} does not exist.` };
  if (question === "") {
    const note = "There is no question to answer: comment `/locus ask <question>`.";
    await gateway.createComment(number, note);
    return { tasks: [], note };
  }
  const { triggeredAt: runCreatedAt, baseBranch, budget } = runFacts(ctx, read);
  const writers = createWriters(ctx);
  // The `/locus ask` comment a writer gave: the thread is read as it stood then.
  const triggeredAt = await commandTrigger(ctx, commandActs(thread.comments, ["ask"]), {
    runCreatedAt,
    writers,
    target: `#${number}`,
  });
  const refused = await refusalOverBudget(ctx, budget, {
    number,
    title: thread.title,
    doing: "answer the question",
  });
  if (refused) return refused;
  const pr = thread.pullRequest;
  const branch = pr && pr.state === "open" ? pr.head.ref : baseBranch;
  const diff = pr ? await gateway.getPullRequestDiff(number) : "";

  const checkout = await checkoutForReading(ctx, `ask-${number}`, branch);
  // Earlier answers are Locus's own comments: each as it stood at the trigger, or not at all.
  const answersThen = thread.comments.flatMap((comment) => {
    const then = itemAtTrigger(comment, triggeredAt);
    return then.kind === "kept" ? [then.item] : [];
  });
  const conversation = renderConversation(
    earlierExchanges(answersThen, { triggeredAt, selfLogins: selfLogins(ctx) }),
  );
  const outcome = await runReadOnlyAgent(ctx, {
    target: number,
    title: thread.title,
    rules: RULES,
    checkout,
    ...(budget ? { budget } : {}),
    task: [
      `## The thread: ${thread.isPullRequest ? "pull request" : "issue"} #${number}`,
      `You are reading \`${branch}\` at ${checkout.sha.slice(0, 7)}.`,
      renderThread(thread, triggeredAt, await writers.trustFor(commentAuthors(thread))),
      diff
        ? `## The pull request's diff\n\n\`\`\`diff\n${truncateHead(diff, DIFF_BUDGET, "PR diff", "Read the files for the rest.").text}\n\`\`\``
        : "",
      conversation,
      "## The question to answer now",
      quoteUntrusted("the person asking", truncateHead(question, BUDGETS.issueBody, "question").text),
    ]
      .filter(Boolean)
      .join("\n\n"),
  });
  const files = new Set(await checkout.worktree.listFiles());
  await checkout.remove();

  // An answer is not work on the task: its cost counts against the day's cap only.
  const status = await startReadOnlyStatus(ctx, number, undefined, false);
  const usd = outcome.result.costUsd;
  const answer = outcome.result.summary.trim();
  if (!outcome.result.success || answer === "") {
    const reason = outcome.result.success ? "the agent gave no answer" : outcome.stopReason;
    await status.finish(
      `Could not answer the question: ${reason}.`,
      usd,
      `Locus could not answer: ${reason}.`,
    );
    return { tasks: [outcome.report("failed", reason)] };
  }
  const blobUrl = `${ctx.run.repositoryUrl}/blob/${checkout.sha}`;
  const comment = await gateway.createComment(
    number,
    ctx.mask(
      renderAnswerComment({
        question,
        answer: linkCitations(answer, { blobUrl, files }),
        sha: checkout.sha,
        commitUrl: `${ctx.run.repositoryUrl}/commit/${checkout.sha}`,
      }),
    ),
  );
  await status.finish(`Answered a question: ${comment.url}`, usd);
  return { tasks: [outcome.report("succeeded")], note: `Answered: ${comment.url}` };
}
