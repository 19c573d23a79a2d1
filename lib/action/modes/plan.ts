/**
 * Mode `plan`: a read-only agent studies the repository at the base branch
 * and proposes a plan through `propose_plan`; Locus posts it as one comment
 * (table in execution order, reasoning, dependency graph, the plan as JSON)
 * that `/locus approve` turns into issues. Nothing is created here. The issue
 * is read once, as it stood when the run was triggered; past the daily cost
 * cap the reply says so and no model is asked.
 */
import { createProposePlanTool } from "../../agent/tools/propose-plan.ts";
import type { Plan } from "../../plan/plan-schema.ts";
import { truncateHead } from "../../prompt/budget.ts";
import { quoteUntrusted, sanitizeUntrusted } from "../../prompt/sanitize.ts";
import { BUDGETS, renderIssue } from "../../prompt/task-prompt.ts";
import { GITHUB_BODY_LIMIT } from "../../render/comment-limit.ts";
import { renderFittedPlanComment } from "../../plan/plan-fit.ts";
import type { ActionContext } from "../../task/context.ts";
import { commandTrigger } from "../../trust/command-trigger.ts";
import { commentAuthors, promptIssueAtTrigger } from "../../task/prompt-issue.ts";
import { commandActs } from "../../trust/trigger-act.ts";
import { createWriters } from "../../trust/writers.ts";
import {
  checkoutForReading,
  refusalOverBudget,
  runReadOnlyAgent,
  UNTRUSTED_RULE,
} from "../../task/read-only-agent.ts";
import { firstReadOptions, runFacts } from "../../task/task-read-context.ts";
import { startReadOnlyStatus } from "../../task/read-only-status.ts";
import type { ModeResult } from "../../task/task-report.ts";

const RULES = [
  "You are Locus, planning work for an AI engineering team in this repository. You can read the repository but not change it.",
  "Study the code that the goal touches (list_files, search_text, read_file), then break the goal into tasks that one pull request each can deliver, in the order they must run: a task may only depend on tasks before it.",
  "Give every task a title, a body that says what to change and where, acceptance criteria that a reviewer can check, a priority, a type and a complexity. Explain in the reasoning why the order is what it is.",
  "Propose the plan with the propose_plan tool, then call finish. People approve or reorder it on GitHub.",
  UNTRUSTED_RULE,
];

export async function runPlanMode(ctx: ActionContext, issueNumber: number): Promise<ModeResult> {
  const { gateway } = ctx;
  const read = await gateway.readThread(issueNumber, firstReadOptions(ctx));
  const issue = read.thread;
  if (!issue || issue.pullRequest) return { tasks: [], note: `#${issueNumber} is not an issue.` };
  if (issue.state !== "open") {
    const note = `#${issueNumber} is closed; reopen it to plan here.`;
    await gateway.createComment(issueNumber, note);
    return { tasks: [], note };
  }
  const { triggeredAt: runCreatedAt, baseBranch, budget } = runFacts(ctx, read);
  const writers = createWriters(ctx);
  // The `/locus plan` comment a writer gave: the issue is read as it stood then.
  const triggeredAt = await commandTrigger(ctx, commandActs(issue.comments, ["plan"]), {
    runCreatedAt,
    writers,
    target: `#${issueNumber}`,
  });
  const refused = await refusalOverBudget(ctx, budget, {
    number: issueNumber,
    title: issue.title,
    doing: "make a plan",
  });
  if (refused) return refused;
  const status = await startReadOnlyStatus(ctx, issueNumber, "Planning: studying the repository.");

  const goal = ctx.command.trim();
  const checkout = await checkoutForReading(ctx, `plan-${issueNumber}`, baseBranch);
  let proposed: Plan | undefined;
  const outcome = await runReadOnlyAgent(ctx, {
    target: issueNumber,
    title: issue.title,
    rules: RULES,
    checkout,
    tools: [createProposePlanTool((plan) => (proposed = plan))],
    ...(budget ? { budget } : {}),
    task: [
      "## Goal to plan",
      goal
        ? quoteUntrusted(
            "the requester",
            truncateHead(sanitizeUntrusted(goal), BUDGETS.issueBody, "goal").text,
          )
        : "No goal was given with the command: plan the work the issue below describes.",
      "## The issue the plan was asked on",
      renderIssue(promptIssueAtTrigger(issue, triggeredAt, await writers.trustFor(commentAuthors(issue)))),
    ].join("\n\n"),
  });
  await checkout.remove();
  const usd = outcome.result.costUsd;

  if (proposed === undefined) {
    const reason = outcome.result.success
      ? "the agent finished without proposing a plan"
      : `the agent stopped before proposing a plan: ${outcome.stopReason}`;
    await status.finish(`Planning failed: ${reason}.`, usd, `Locus could not make a plan: ${reason}.`);
    return { tasks: [outcome.report("failed", reason)] };
  }
  const body = ctx.mask(renderFittedPlanComment(proposed));
  if (body.length > GITHUB_BODY_LIMIT) {
    const reason = `the plan does not fit in one comment (${body.length} characters); ask for fewer tasks`;
    await status.finish(`Planning failed: ${reason}.`, usd, `Locus could not post the plan: ${reason}.`);
    return { tasks: [outcome.report("failed", reason)] };
  }
  const comment = await gateway.createComment(issueNumber, body);
  await status.finish(`Proposed a plan of ${proposed.tasks.length} tasks: ${comment.url}`, usd);
  return { tasks: [outcome.report("succeeded")], note: `Plan posted: ${comment.url}` };
}
