/**
 * Mode `iterate`: review feedback on a Locus PR (or, with `pr.humanPrs`, a
 * person's PR in this repository) becomes a new commit on the same branch. Feedback is what is still open and came after the newest agent
 * commit — unresolved threads, review verdicts, general comments, the
 * `/locus iterate` note — minus Locus's own words, as it stood when the run
 * was triggered: text edited later is read as it was then, or left out (and
 * the prompt says so) when GitHub no longer holds it. Nothing open: a
 * comment, and no agent run. Past the daily cost cap: a comment, and no run.
 * While the agent works, the issue's status comment shows its current tool.
 *
 * GitHub calls: one read for the PR, its feedback, its issue, the run's
 * creation time and the day's spend (a second when the PR is stacked on
 * another branch), one permission check per author not yet known to have
 * write access, two label changes, the status comment (and its throttled live
 * edits), and one request that replies in the threads, resolves them and
 * comments. On a person's PR: one more read for its head repository and one
 * for the requester's id; the status comment is the PR's, and no label moves.
 */
import { join } from "node:path";
import { NO_USAGE } from "../../agent/usage.ts";
import { wipBranch } from "../../naming/branches.ts";
import { iterateCommitMessage, withTrailers } from "../../naming/commit.ts";
import { hasFeedback } from "../../prompt/feedback.ts";
import { renderIterateTask } from "../../prompt/iterate-prompt.ts";
import { renderSummaryComment } from "../../render/summary-comment.ts";
import { buildTaskPrompt, renderCheckpoint, type Checkpoint } from "../../prompt/task-prompt.ts";
import { roundCanStart } from "../../lifecycle/lifecycle.ts";
import { parseCheckpoint, saveCheckpoint } from "../../task/checkpoint.ts";
import { withheldNote } from "../../task/scratch-files.ts";
import { scratchIn } from "../../task/task-session.ts";
import { threadReplies, unreportedThreadsNote } from "../../pull-request/thread-replies.ts";
import type { ActionContext } from "../../task/context.ts";
import { readLocusPullRequest } from "../../pull-request/locus-pull-request.ts";
import { startPullRequestRound } from "../../pull-request/pull-request-round.ts";
import { renderFailureComment } from "../../render/failure-comment.ts";
import { feedbackAtTrigger } from "../../pull-request/feedback-at-trigger.ts";
import { runAgentLive } from "../../task/run-agent-live.ts";
import { createReportThreadsTool } from "../../agent/tools/report-threads.ts";
import type { ThreadReport } from "../../agent/runner.ts";
import { commandTriggerAct } from "../../trust/command-trigger.ts";
import { commentAuthors, promptIssueAtTrigger } from "../../task/prompt-issue.ts";
import { createWriters } from "../../trust/writers.ts";
import { runFacts } from "../../task/task-read-context.ts";
import { readRepositoryContext, trustedCommit } from "../../task/repository-context.ts";
import { selfLogins } from "../../trust/self-logins.ts";
import { commitIdentity } from "../../git/commit-identity.ts";
import { describeStopUnderCap } from "../../task/stop-reason.ts";
import { reportWithoutRun, type ModeResult } from "../../task/task-report.ts";
import { createEventRecorder } from "../../task/tool-cards.ts";
import { collectFeedback, iterateActs } from "../../pull-request/iterate-feedback.ts";
import { movedBranchComment, pushWithOneRebase } from "../../stack/push-with-rebase.ts";
import {
  personRound,
  personTaskIssue,
  pushOnTop,
  requesterTrailers,
} from "../../pull-request/person-pull-request.ts";
import { pushRefusalOf } from "../../git/push-refusal.ts";
import { safeToPublish } from "../../render/safe-text.ts";

export async function runIterateMode(ctx: ActionContext, prNumber: number): Promise<ModeResult> {
  const { gateway, git } = ctx;
  const started = ctx.clock.now().getTime();
  const found = await readLocusPullRequest(ctx, prNumber, "Locus iterates only on its own.", "iterate");
  if (!found.ok) return found.result;
  const { issueNumber } = found;
  const person = found.owner === "person";
  const { triggeredAt: runCreatedAt, budget } = runFacts(ctx, found.read);
  const writers = createWriters(ctx);
  const { at: triggeredAt, requester } = await commandTriggerAct(ctx, iterateActs(found.read), {
    runCreatedAt,
    writers,
    target: `PR #${prNumber}`,
  });
  const { read, withheld } = feedbackAtTrigger(found.read, triggeredAt);
  const { pr } = read;
  // A person's PR has no task issue: its round is told in replies on the PR alone.
  const issue = person ? personTaskIssue(pr, "Address the review feedback on it") : read.linkedIssue;
  if (!issue || (!person && !roundCanStart(issue.labels))) {
    const note = `#${issueNumber} is not in review, so there is nothing to iterate on.`;
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }

  await git.fetchBranches([pr.head.ref, pr.base.ref]);
  const headRef = git.remoteRef(pr.head.ref);
  const baseRef = git.remoteRef(pr.base.ref);
  const author = commitIdentity(ctx.identity, ctx.config.commit);
  const lastAgentCommitAt = await git.lastCommitBy(author.email, `${baseRef}..${headRef}`);
  const feedback = await collectFeedback(ctx, writers, read, {
    triggeredAt: triggeredAt.toISOString(),
    ...(lastAgentCommitAt ? { lastAgentCommitAt } : {}),
    selfLogins: selfLogins(ctx),
  });
  if (!hasFeedback(feedback, ctx.command)) {
    const note = "There is no open review feedback on this pull request to address, so Locus did nothing.";
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }

  const base = { issue: issueNumber, title: issue.title };
  if (budget && budget.remaining() <= 0) {
    const reason = budget.refusal();
    ctx.log.warn(`Not iterating on PR #${prNumber}: ${reason}`);
    await gateway.createComment(
      prNumber,
      ctx.mask(safeToPublish(`Locus did not address the review feedback: ${reason}.`)),
    );
    return {
      tasks: [reportWithoutRun(base, "failed", reason)],
    };
  }
  const recorder = createEventRecorder((line) => ctx.log.info(ctx.mask(line)));
  const opening = `Addressing review feedback on PR #${prNumber}.`;
  const round = person
    ? await personRound(ctx, prNumber, opening)
    : await startPullRequestRound(ctx, issue, opening);

  const path = join(ctx.run.worktreeRoot, "locus-worktrees", `iterate-${prNumber}`);
  const remoteHead = (await git.revParse(headRef)) ?? "";
  const wip = wipBranch(issueNumber);
  const remoteWip = (await git.remoteBranches([wip])).get(wip) ?? "";
  // An earlier round's saved work that builds on the branch as it is now: this round continues it.
  let resumed: Checkpoint | undefined;
  if (remoteWip) {
    await git.fetchBranches([wip]);
    if (await git.isAncestor(headRef, git.remoteRef(wip)))
      resumed = parseCheckpoint(wip, await git.commitMessage(git.remoteRef(wip)));
  }
  const worktree = await git.worktreeAdd(path, pr.head.ref, resumed ? git.remoteRef(wip) : headRef);
  if (resumed) ctx.log.info(`Continuing from ${wip}: ${resumed.reason}`);
  const finish = round.finish;

  // The linked issue's discussion follows the same rule as a task's: writers only, unless config says otherwise.
  const asPrompted = promptIssueAtTrigger(issue, triggeredAt, await writers.trustFor(commentAuthors(issue)));
  const prompt = buildTaskPrompt({
    repository: await readRepositoryContext(worktree, await trustedCommit(ctx)),
    issue: asPrompted,
  });
  const diff = await git.branchDiff(baseRef, headRef);
  let reported: readonly ThreadReport[] | undefined;
  const result = await runAgentLive(ctx, {
    title: `Agent: iterate on PR #${prNumber}`,
    prompt: {
      ...prompt,
      task: withCheckpoint(
        resumed,
        renderIterateTask({
          issue: asPrompted,
          pr: { number: prNumber, diff },
          feedback,
          note: ctx.command,
          withheld,
        }),
      ),
    },
    cwd: worktree.cwd,
    recorder,
    writeStatus: round.progress,
    budget,
    tools: feedback.threads.length > 0 ? [createReportThreadsTool((threads) => (reported = threads))] : [],
    // The opening status was just written: a round short enough to fit in one
    // interval makes no further edit and stays within its 8 GitHub calls.
    lastWriteAt: ctx.clock.now().getTime(),
  });
  const measured = {
    ...base,
    durationMs: ctx.clock.now().getTime() - started,
    usage: result.usage ?? NO_USAGE,
    costUsd: result.costUsd,
    cards: recorder.cards(),
    summary: ctx.mask(result.summary),
  };
  const keepWork = (reason: string) =>
    saveCheckpoint({
      worktree,
      issue,
      reason,
      summary: ctx.mask(result.summary),
      startSha: remoteHead,
      remoteWip,
    });

  if (!result.success) {
    const reason = ctx.mask(describeStopUnderCap(result, ctx.config.agent.maxCostUsd, budget));
    const checkpoint = await keepWork(reason);
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
  // The saved round's commits fold into this round's one commit on top of the branch.
  if (resumed) await worktree.resetSoft(headRef);
  const { leaveOut: leftOut, listed } = await scratchIn(worktree, result);
  const stage = await worktree.stageAll(leftOut, listed);
  if (!stage.staged) {
    await gateway.createComment(
      prNumber,
      ctx.mask(renderSummaryComment("Locus looked at the feedback and changed nothing:", result.summary)),
    );
    return finish(
      { ...measured, status: "no-changes", reason: "the agent made no change" },
      `Looked at the feedback on PR #${prNumber}; no change was needed.`,
      "deliver",
    );
  }
  const trailers = person ? await requesterTrailers(ctx, requester) : [];
  await worktree.commit(withTrailers(iterateCommitMessage(issueNumber), trailers));
  const pushed = person
    ? await pushOnTop(worktree, pr.head.ref, remoteHead)
    : await pushWithOneRebase(worktree, git, pr.head.ref, remoteHead);
  if (!pushed.ok && pushed.refusal) {
    // A rule, not a moved branch: the comment names it and what to change (commit.via: api for signatures).
    const reason = `GitHub refused the push of ${pr.head.ref}: ${pushed.refusal.rules.join(" ")}`;
    let wipRefused = false;
    const checkpoint = await keepWork(reason).catch((error: unknown) => {
      ctx.log.error(ctx.mask(`Could not save a checkpoint: ${String(error)}`));
      wipRefused = pushRefusalOf(String(error)) !== undefined;
      return undefined;
    });
    const pushRefusal = { ...pushed.refusal, wipRefused };
    const comment = { reason, checkpoint, logTail: recorder.tail(30), runUrl: ctx.run.url, pushRefusal };
    await gateway.createComment(prNumber, ctx.mask(renderFailureComment(comment)));
    return finish(
      { ...measured, status: "failed", reason, ...(checkpoint ? { checkpoint } : {}) },
      reason,
      "fail",
    );
  }
  if (!pushed.ok) {
    const reason = `${pr.head.ref} moved while Locus worked and ${pushed.why}`;
    const checkpoint = await keepWork(reason);
    await gateway.createComment(prNumber, ctx.mask(movedBranchComment(pr.head.ref, pushed.why, checkpoint)));
    return finish(
      { ...measured, status: "failed", reason, ...(checkpoint ? { checkpoint } : {}) },
      `Failed: ${reason}.`,
      "fail",
    );
  }

  const short = pushed.sha.slice(0, 7);
  let headline = [`Pushed fixes for the review feedback on PR #${prNumber}.`, withheldNote(stage.withheld)]
    .filter(Boolean)
    .join(" ");
  // `report_threads` from any provider; the built-in runner may also report in `finish`.
  const threads = reported ?? result.threads;
  // The round's part of the session record, uploaded now so the round's comment can link it.
  const record = await ctx.sessionRecord?.publish(`pr-${prNumber}`);
  try {
    await gateway.answerReviewFeedback(
      threadReplies(feedback.threads, threads, short, ctx.config.iterate.resolveThreads).map((reply) => ({
        ...reply,
        body: ctx.mask(reply.body),
      })),
      {
        subjectId: pr.nodeId,
        body: ctx.mask(
          renderSummaryComment(
            [
              `Locus addressed the review feedback in ${short}.`,
              unreportedThreadsNote(feedback.threads.length, threads),
            ]
              .filter(Boolean)
              .join(" "),
            result.summary,
            record?.ok ? record.url : undefined,
          ),
        ),
      },
    );
  } catch (error) {
    // The fix is pushed; a failed reply must not turn the round into a failure.
    const why = ctx.mask(error instanceof Error ? error.message : String(error));
    ctx.log.warn(`Replying on PR #${prNumber} failed: ${why}`);
    headline = `${headline} Replying in its review threads failed: ${why}`;
  }
  // Only the saved work this round continued is done with; saved work it did not build on stays.
  if (resumed) await worktree.deleteRemoteBranch(wip, remoteWip);
  await git.worktreeRemove(path);
  return finish(
    { ...measured, status: "succeeded", pr: { number: prNumber, url: pr.url } },
    headline,
    "deliver",
  );
}

function withCheckpoint(checkpoint: Checkpoint | undefined, task: string): string {
  return checkpoint ? `${task}\n\n${renderCheckpoint(checkpoint)}` : task;
}
