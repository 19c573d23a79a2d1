/**
 * Mode `iterate`: review feedback on a Locus PR becomes a new commit on the
 * same branch. Feedback is what is still open and came after the newest agent
 * commit — unresolved threads, review verdicts, general comments, the
 * `/locus iterate` note — minus Locus's own words and anything created or
 * edited after the run started. Nothing open: a comment, and no agent run.
 */
import { join } from "node:path";
import { mayTriggerWork } from "../../auth/actor-policy.ts";
import type { GitClient } from "../../git/git-client.ts";
import type { IssueWithComments, PullRequest } from "../../github/index.ts";
import { MANAGED_LABEL } from "../../labels/schema.ts";
import { transition } from "../../labels/status.ts";
import { issueOfBranch, wipBranch } from "../../naming/branches.ts";
import { iterateCommitMessage } from "../../naming/commit.ts";
import { hasFeedback, selectFeedback, type SelectedFeedback } from "../../prompt/feedback.ts";
import { renderIterateTask } from "../../prompt/iterate-prompt.ts";
import { buildTaskPrompt } from "../../prompt/task-prompt.ts";
import { isLocusReviewText } from "../../review/review-comment.ts";
import { saveCheckpoint } from "../checkpoint.ts";
import type { ActionContext } from "../context.ts";
import { renderFailureComment } from "../failure-comment.ts";
import { isLocusComment, promptIssue } from "../prompt-issue.ts";
import { readRepositoryContext } from "../repository-context.ts";
import { reviewThreads } from "../review-threads.ts";
import { isSelf, selfLogins } from "../self-logins.ts";
import { readStatus, writeStatus } from "../../status/status-store.ts";
import { describeStop } from "../stop-reason.ts";
import type { ModeResult, TaskReport } from "../task-report.ts";
import { createEventRecorder } from "../tool-cards.ts";
import { NO_USAGE } from "../../agent/usage.ts";

/**
 * Locus's own review (mode `review`) is feedback like a person's, though its
 * identity is Locus's: its review and line comments are credited to this
 * name, which is no self login, so they are heard and their threads stay open
 * until Locus replies in them. Only text Locus wrote qualifies: anyone can
 * type the marker.
 */
const LOCUS_REVIEWER = "locus-review";

function asReviewer<T extends { author: string; body: string }>(self: readonly string[], item: T): T {
  return isSelf(self, item.author) && isLocusReviewText(item.body)
    ? { ...item, author: LOCUS_REVIEWER }
    : item;
}

async function collectFeedback(
  ctx: ActionContext,
  pr: PullRequest,
  prIssue: IssueWithComments,
  lastAgentCommitAt: string | null,
  triggeredAt: Date,
): Promise<SelectedFeedback> {
  const { gateway } = ctx;
  const self = selfLogins(ctx);
  const permissions = new Map<string, boolean>();
  const allowAll = ctx.config.iterate.allowFeedbackFromNonCollaborators;
  const logins = new Set<string>();
  const [rawReviewComments, rawReviews] = await Promise.all([
    gateway.listReviewComments(pr.number),
    gateway.listReviews(pr.number),
  ]);
  const reviewComments = rawReviewComments.map((item) => asReviewer(self, item));
  const reviews = rawReviews.map((item) => asReviewer(self, item));
  for (const item of [...reviewComments, ...reviews, ...prIssue.comments]) logins.add(item.author);
  logins.delete(LOCUS_REVIEWER);
  permissions.set(LOCUS_REVIEWER, true);
  if (!allowAll) {
    for (const login of logins) {
      permissions.set(login, mayTriggerWork(await gateway.getCollaboratorPermission(login)));
    }
  }
  return selectFeedback(
    {
      threads: reviewThreads(reviewComments, self),
      reviews: reviews.map((review) => ({
        author: review.author,
        body: review.body,
        state: review.state,
        createdAt: review.submittedAt ?? new Date(0).toISOString(),
      })),
      comments: prIssue.comments.filter((comment) => !isLocusComment(comment.body)),
    },
    {
      triggeredAt: triggeredAt.toISOString(),
      ...(lastAgentCommitAt ? { lastAgentCommitAt } : {}),
      selfLogins: self,
      mayGiveFeedback: (login) => allowAll || permissions.get(login) === true,
    },
  );
}

export async function runIterateMode(ctx: ActionContext, prNumber: number): Promise<ModeResult> {
  const { gateway, git } = ctx;
  const triggeredAt = ctx.clock.now();
  const started = triggeredAt.getTime();
  const pr = await gateway.getPullRequest(prNumber);
  if (!pr || pr.state !== "open" || pr.merged) return { tasks: [], note: `PR #${prNumber} is not open.` };
  const issueNumber = issueOfBranch(pr.head.ref);
  const prIssue = await gateway.getIssue(prNumber);
  if (issueNumber === undefined || !prIssue?.labels.includes(MANAGED_LABEL)) {
    const note = `PR #${prNumber} is not a Locus pull request; Locus iterates only on its own.`;
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }
  const issue = await gateway.getIssue(issueNumber);
  const iterating = issue ? transition(issue.labels, "iterate") : undefined;
  if (!issue || !iterating?.ok) {
    const note = `#${issueNumber} is not in review, so there is nothing to iterate on.`;
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }

  await git.fetchBranches([pr.head.ref, pr.base.ref]);
  const headRef = git.remoteRef(pr.head.ref);
  const lastAgentCommitAt = await git.lastCommitBy(
    ctx.config.commit.email,
    `${git.remoteRef(pr.base.ref)}..${headRef}`,
  );
  const feedback = await collectFeedback(ctx, pr, prIssue, lastAgentCommitAt, triggeredAt);
  if (!hasFeedback(feedback, ctx.command)) {
    const note = "There is no open review feedback on this pull request to address, so Locus did nothing.";
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }

  const base = { issue: issueNumber, title: issue.title };
  const recorder = createEventRecorder((line) => ctx.log.info(ctx.mask(line)));
  let labels = await gateway.setLabels(issueNumber, iterating.labels);
  const state = await readStatus(gateway, issueNumber);
  const status = { ...state, ...(ctx.run.url ? { runUrl: ctx.run.url } : {}) };
  await writeStatus(
    gateway,
    issueNumber,
    { headline: `Addressing review feedback on PR #${prNumber}.` },
    status,
  );

  const path = join(ctx.run.worktreeRoot, "locus-worktrees", `iterate-${prNumber}`);
  const remoteHead = (await git.revParse(headRef)) ?? "";
  const remoteWip = (await git.remoteBranches([wipBranch(issueNumber)])).get(wipBranch(issueNumber)) ?? "";
  const worktree = await git.worktreeAdd(path, pr.head.ref, headRef);
  const finish = async (report: TaskReport, headline: string, event: "deliver" | "fail") => {
    const next = transition(labels, event);
    if (next.ok && next.changed) labels = await gateway.setLabels(issueNumber, next.labels);
    await writeStatus(
      gateway,
      issueNumber,
      { headline },
      {
        ...status,
        costUsd: (state.costUsd ?? 0) + report.costUsd,
        ...(report.status === "failed" && report.reason ? { lastError: report.reason.slice(0, 500) } : {}),
      },
    );
    return { tasks: [report] };
  };

  const prompt = buildTaskPrompt({
    repository: await readRepositoryContext(worktree),
    issue: promptIssue(issue, triggeredAt),
  });
  const diff = await gateway.getPullRequestDiff(prNumber);
  const result = await ctx.log.group(`Agent: iterate on PR #${prNumber}`, () =>
    ctx.runner.execute({
      prompt: {
        ...prompt,
        task: renderIterateTask({
          issue: promptIssue(issue, triggeredAt),
          pr: { number: prNumber, diff },
          feedback,
          note: ctx.command,
        }),
      },
      cwd: worktree.cwd,
      model: ctx.model,
      maxTurns: ctx.maxTurns,
      signal: ctx.signal,
      onEvent: recorder.onEvent,
      maxCostUsd: ctx.config.agent.maxCostUsd,
    }),
  );
  const measured = {
    ...base,
    durationMs: ctx.clock.now().getTime() - started,
    usage: result.usage ?? NO_USAGE,
    costUsd: result.costUsd,
    cards: recorder.cards(),
    summary: ctx.mask(result.summary),
  };

  if (!result.success) {
    const reason = ctx.mask(describeStop(result));
    const checkpoint = await saveCheckpoint({
      worktree,
      issue,
      reason,
      summary: ctx.mask(result.summary),
      startSha: remoteHead,
      remoteWip,
    });
    await gateway.createComment(
      prNumber,
      ctx.mask(renderFailureComment({ reason, checkpoint, logTail: recorder.tail(30), runUrl: ctx.run.url })),
    );
    return finish(
      { ...measured, status: "failed", reason, ...(checkpoint ? { checkpoint } : {}) },
      `Failed to address feedback: ${reason}`,
      "fail",
    );
  }
  if (!(await worktree.stageAll())) {
    await gateway.createComment(
      prNumber,
      ctx.mask(`Locus looked at the feedback and changed nothing:\n\n${result.summary}`),
    );
    return finish(
      { ...measured, status: "no-changes", reason: "the agent made no change" },
      `Looked at the feedback on PR #${prNumber}; no change was needed.`,
      "deliver",
    );
  }
  const sha = await worktree.commit(iterateCommitMessage(issueNumber));
  const pushed = await pushWithOneRebase(worktree, git, pr.head.ref, remoteHead);
  if (!pushed.ok) {
    const reason = `${pr.head.ref} moved and rebasing onto it failed (${pushed.message}). Rebase it by hand and comment \`/locus iterate\` again`;
    await gateway.createComment(prNumber, ctx.mask(reason));
    return finish({ ...measured, status: "failed", reason }, `Failed: ${reason}`, "fail");
  }
  const short = pushed.sha.slice(0, 7) || sha.slice(0, 7);
  const reply = ctx.mask(`Addressed in ${short}: ${result.summary}`);
  for (const thread of feedback.threads) {
    if (thread.id) await gateway.replyToReviewComment(prNumber, Number(thread.id), reply);
  }
  await gateway.createComment(
    prNumber,
    ctx.mask(`Locus addressed the review feedback in ${short}.\n\n${result.summary}`),
  );
  if (remoteWip) await worktree.deleteRemoteBranch(wipBranch(issueNumber), remoteWip);
  await git.worktreeRemove(path);
  return finish(
    { ...measured, status: "succeeded", pr: { number: prNumber, url: pr.url } },
    `Pushed fixes for the review feedback on PR #${prNumber}.`,
    "deliver",
  );
}

/** Push; if the branch moved meanwhile, rebase onto it once and push again. */
async function pushWithOneRebase(
  worktree: GitClient,
  git: GitClient,
  branch: string,
  expect: string,
): Promise<{ ok: true; sha: string } | { ok: false; message: string }> {
  const first = await worktree.push(branch, { expect });
  if (first.ok) return { ok: true, sha: (await worktree.revParse("HEAD")) ?? "" };
  if (!first.rejected) return { ok: false, message: first.message };
  await git.fetchBranches([branch]);
  const moved = (await git.revParse(git.remoteRef(branch))) ?? "";
  const rebased = await worktree.rebase(git.remoteRef(branch));
  if (!rebased.ok) return { ok: false, message: `conflicts in ${rebased.conflicts.join(", ")}` };
  const second = await worktree.push(branch, { expect: moved });
  if (!second.ok) return { ok: false, message: second.message };
  return { ok: true, sha: (await worktree.revParse("HEAD")) ?? "" };
}
