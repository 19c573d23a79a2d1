/**
 * Mode `review`: a read-only agent reads the PR at its head commit with the
 * diff, the linked issue and the repository's instructions, and submits its
 * review through `submit_review`. Locus posts exactly one review: findings on
 * diff lines as line comments, the others in the body (never dropped), the
 * verdict COMMENT or REQUEST_CHANGES — COMMENT on a PR Locus itself opened.
 * The PR's description and its issue are read as they stood when the run was
 * triggered; past the daily cost cap the reply says so and no model is asked.
 */
import { createSubmitReviewTool } from "../../agent/tools/submit-review.ts";
import { isGitHubError, type NewReview, type PullRequest, type TaskThread } from "../../github/index.ts";
import { MANAGED_LABEL } from "../../labels/schema.ts";
import { truncateHead } from "../../prompt/budget.ts";
import { quoteUntrusted, sanitizeUntrusted } from "../../prompt/sanitize.ts";
import { BUDGETS, renderIssue } from "../../prompt/task-prompt.ts";
import { diffAnchors, placeFindings } from "../../review/diff-anchors.ts";
import { linkedIssueOf } from "../../review/linked-issue.ts";
import { numberDiff } from "../../review/numbered-diff.ts";
import { renderFindingComment, renderReviewBody } from "../../review/review-comment.ts";
import { reviewEvent } from "../../review/review-event.ts";
import type { SubmittedReview, Verdict } from "../../review/review-schema.ts";
import type { ActionContext } from "../../task/context.ts";
import { commandTrigger } from "../../trust/command-trigger.ts";
import { commentAuthors, promptIssueAtTrigger } from "../../task/prompt-issue.ts";
import { commandActs } from "../../trust/trigger-act.ts";
import { createWriters, type Writers } from "../../trust/writers.ts";
import {
  checkoutForReading,
  refusalOverBudget,
  runReadOnlyAgent,
  UNTRUSTED_RULE,
} from "../../task/read-only-agent.ts";
import { firstReadOptions, runFacts } from "../../task/task-read-context.ts";
import { textAtTrigger } from "../../trust/text-at-trigger.ts";
import { selfLogins } from "../../trust/self-logins.ts";
import { isLocus } from "../../github/locus-identity.ts";
import { startReadOnlyStatus } from "../../task/read-only-status.ts";
import type { ModeResult } from "../../task/task-report.ts";

const RULES = [
  "You are Locus, reviewing a pull request in this repository. You can read the repository (checked out at the pull request's head) but not change it.",
  "Check that the change does what its issue asks, is correct, handles errors and edge cases, is tested, and fits the repository's conventions. Read the surrounding code before judging a line.",
  "Report each problem as a finding on a line of the diff: the diff below shows every line's old and new number; use the new number with side RIGHT for added or unchanged lines, the old number with side LEFT for removed lines. A finding about a line outside the diff is still welcome: it goes into the review body.",
  "Submit the review with the submit_review tool, then call finish. Use REQUEST_CHANGES when a finding must be fixed before merging, otherwise COMMENT; approving is left to people.",
  UNTRUSTED_RULE,
];

async function reviewTask(
  ctx: ActionContext,
  thread: TaskThread & { pullRequest: PullRequest },
  diff: string,
  at: { readonly triggeredAt: Date; readonly writers: Writers },
): Promise<string> {
  const { triggeredAt, writers } = at;
  const pr = thread.pullRequest;
  const description = textAtTrigger(thread.body, thread.history, triggeredAt);
  const body = description.ok ? description.text : "";
  const linked = linkedIssueOf({ head: pr.head, body });
  const issue =
    linked === undefined
      ? null
      : (await ctx.gateway.readThread(linked, { managedLabel: MANAGED_LABEL })).thread;
  const prText = description.ok
    ? truncateHead(sanitizeUntrusted(body), BUDGETS.issueBody, "PR description").text || "(no description)"
    : `(Left out: the description ${description.why}; only text as it stood when this run was triggered is used.)`;
  const numbered = truncateHead(numberDiff(diff), BUDGETS.prDiff, "PR diff", "Read the files for the rest.");
  return [
    `## Pull request #${pr.number}: ${sanitizeUntrusted(pr.title).replace(/\s+/g, " ").trim()}`,
    `Branch \`${pr.head.ref}\` into \`${pr.base.ref}\`, opened by @${pr.author}.`,
    quoteUntrusted(`@${pr.author}`, prText),
    issue && !issue.pullRequest
      ? `## The issue it delivers\n\n${renderIssue(promptIssueAtTrigger(issue, triggeredAt, await writers.trustFor(commentAuthors(issue))))}`
      : "",
    `## The diff (old and new line numbers on the left)\n\n\`\`\`diff\n${numbered.text}\n\`\`\``,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The review as posted: anchored findings inline, the rest in the body, pinned to the commit read. */
function composeReview(
  review: SubmittedReview,
  event: Verdict,
  diff: string,
  commitId: string,
  mask: (text: string) => string,
): NewReview {
  const placed = placeFindings(review.findings, diffAnchors(diff));
  return {
    event,
    commitId,
    body: mask(
      renderReviewBody({
        summary: review.summary,
        verdict: review.verdict,
        event,
        inlineCount: placed.inline.length,
        unplaced: placed.unplaced,
      }),
    ),
    comments: placed.inline.map((finding) => ({
      path: finding.path,
      line: finding.line,
      side: finding.side,
      body: mask(renderFindingComment(finding)),
    })),
  };
}

/**
 * Posts one review, pinned to the commit the agent read so its anchors stay
 * right if the branch has moved since. GitHub answers 422 when the identity
 * turns out to be the PR's author after all (REQUEST_CHANGES) or when an
 * anchor is not on a line of that commit's diff: the same findings are then
 * posted as a comment, all in the body.
 */
async function postReview(
  ctx: ActionContext,
  pr: PullRequest,
  review: SubmittedReview,
  event: Verdict,
  read: { diff: string; sha: string },
): Promise<{ event: Verdict; inline: number }> {
  const { diff } = read;
  const post = async (attempt: { event: Verdict; diff: string }) => {
    const composed = composeReview(review, attempt.event, attempt.diff, read.sha, ctx.mask);
    await ctx.gateway.createReview(pr.number, composed);
    return { event: attempt.event, inline: composed.comments?.length ?? 0 };
  };
  let attempt = { event, diff };
  for (const fallback of [
    { event: "COMMENT" as const, diff },
    { event: "COMMENT" as const, diff: "" },
  ]) {
    try {
      return await post(attempt);
    } catch (error) {
      if (!isGitHubError(error) || error.status !== 422) throw error;
      ctx.log.warn(`GitHub refused the review (${error.message}); posting it as a comment`);
      attempt = fallback;
    }
  }
  return post(attempt);
}

export async function runReviewMode(ctx: ActionContext, prNumber: number): Promise<ModeResult> {
  const { gateway } = ctx;
  const read = await gateway.readThread(prNumber, firstReadOptions(ctx));
  const thread = read.thread;
  const pr = thread?.pullRequest;
  if (!thread || !pr || pr.state !== "open" || pr.merged) {
    const note = `PR #${prNumber} is not open, so Locus did not review it.`;
    if (pr) await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }
  const { triggeredAt: runCreatedAt, budget } = runFacts(ctx, read);
  const writers = createWriters(ctx);
  // A writer's `/locus review`; without one, a review Locus started on its own PR (review.onOpen) reads it as opened.
  const opened = isLocus(selfLogins(ctx), pr.author)
    ? { fallback: { at: new Date(thread.history.createdAt), what: "the pull request's opening" } }
    : {};
  const triggeredAt = await commandTrigger(ctx, commandActs(thread.comments, ["review"]), {
    runCreatedAt,
    writers,
    target: `PR #${prNumber}`,
    ...opened,
  });
  const refused = await refusalOverBudget(ctx, budget, {
    number: prNumber,
    title: pr.title,
    doing: "review this pull request",
  });
  if (refused) return refused;
  const status = await startReadOnlyStatus(ctx, prNumber, `Reviewing ${pr.head.sha.slice(0, 7)}.`);

  const diff = await gateway.getPullRequestDiff(prNumber);
  const checkout = await checkoutForReading(ctx, `review-${prNumber}`, pr.head.ref);
  let submitted: SubmittedReview | undefined;
  const outcome = await runReadOnlyAgent(ctx, {
    target: prNumber,
    title: pr.title,
    rules: RULES,
    checkout,
    tools: [createSubmitReviewTool((review) => (submitted = review))],
    task: await reviewTask(ctx, { ...thread, pullRequest: pr }, diff, { triggeredAt, writers }),
    ...(budget ? { budget } : {}),
  });
  await checkout.remove();
  const usd = outcome.result.costUsd;

  // Every provider submits through the tool: the CLIs give it as their structured answer.
  const review = submitted;
  if (review === undefined) {
    const reason = outcome.result.success
      ? "the agent finished without submitting a review"
      : `the agent stopped before submitting a review: ${outcome.stopReason}`;
    await status.finish(
      `Review failed: ${reason}.`,
      usd,
      `Locus could not review this pull request: ${reason}.`,
    );
    return { tasks: [outcome.report("failed", reason)] };
  }
  const posted = await postReview(ctx, pr, review, reviewEvent(review.verdict, pr.author, selfLogins(ctx)), {
    diff,
    sha: checkout.sha,
  });
  const verdict = posted.event === "REQUEST_CHANGES" ? "requested changes" : "commented";
  await status.finish(
    `Reviewed ${checkout.sha.slice(0, 7)}: ${verdict}, ${review.findings.length} findings (${posted.inline} on diff lines).`,
    usd,
  );
  return { tasks: [outcome.report("succeeded")], note: `Review posted on PR #${prNumber}: ${verdict}.` };
}
