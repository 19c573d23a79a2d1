/**
 * Mode `fix-ci`: CI failed on a Locus PR's head; the agent reads what failed
 * (failed jobs and steps, the tails of their logs, check outputs and
 * annotations), reproduces it, fixes it on the PR's branch, and Locus commits
 * `fix: make CI pass (#N)` and pushes with a lease. A failure the agent
 * judges unrelated to the PR (flaky, infrastructure) is reported, not
 * "fixed". The linked issue goes in-review → in-progress → in-review, its
 * status comment following the agent; the PR gets one comment saying what
 * failed and what changed. The round starts from the PR's head, never from
 * saved work on `locus/wip/issue-<N>` (an iterate round's, say), so it leaves
 * that branch alone: it neither deletes it on success nor saves over it on
 * failure. Scratch files and build output its commands left stay out of the
 * commit, as in a task. With `pr.humanPrs`, a writer's `/locus fix-ci` works
 * on a person's PR in this repository as iterate does: no task issue or label
 * (the status is the PR's own), a `Co-authored-by` trailer for whoever asked,
 * and a push that only fast-forwards their branch.
 */
import { join } from "node:path";
import { NO_USAGE } from "../../agent/usage.ts";
import { createReportUnrelatedTool } from "../../agent/tools/report-unrelated.ts";
import { readCiFailures } from "../../ci/ci-failures.ts";
import { parseCiSource } from "../../ci/ci-source.ts";
import { renderFixCiComment, type FixCiOutcome } from "../../ci/fix-ci-comment.ts";
import { wipBranch } from "../../naming/branches.ts";
import { fixCiCommitMessage } from "../../naming/ci-commit.ts";
import { withTrailers } from "../../naming/commit.ts";
import { renderFixCiTask } from "../../prompt/fix-ci-prompt.ts";
import { buildTaskPrompt } from "../../prompt/task-prompt.ts";
import { roundCanStart } from "../../lifecycle/lifecycle.ts";
import { saveCheckpoint } from "../../task/checkpoint.ts";
import { pushRefusalOf } from "../../git/push-refusal.ts";
import {
  personRound,
  personTaskIssue,
  pushOnTop,
  requesterTrailers,
} from "../../pull-request/person-pull-request.ts";
import { leftOutNote, withheldNote } from "../../task/scratch-files.ts";
import { scratchIn } from "../../task/task-session.ts";
import type { ActionContext } from "../../task/context.ts";
import { readLocusPullRequest } from "../../pull-request/locus-pull-request.ts";
import { startPullRequestRound } from "../../pull-request/pull-request-round.ts";
import { renderFailureComment } from "../../render/failure-comment.ts";
import { commandTriggerAct } from "../../trust/command-trigger.ts";
import { commentAuthors, promptIssueAtTrigger } from "../../task/prompt-issue.ts";
import { commandActs } from "../../trust/trigger-act.ts";
import { readRepositoryContext, trustedCommit } from "../../task/repository-context.ts";
import { createWriters } from "../../trust/writers.ts";
import { runAgentLive } from "../../task/run-agent-live.ts";
import { describeStopUnderCap } from "../../task/stop-reason.ts";
import { runFacts } from "../../task/task-read-context.ts";
import { reportWithoutRun, type ModeResult } from "../../task/task-report.ts";
import { createEventRecorder } from "../../task/tool-cards.ts";
import { safeToPublish } from "../../render/safe-text.ts";
import { code, paragraph, plain, root } from "../../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../../render/tree/serialize.ts";

export async function runFixCiMode(ctx: ActionContext, prNumber: number): Promise<ModeResult> {
  const { gateway, git } = ctx;
  const started = ctx.clock.now().getTime();
  const found = await readLocusPullRequest(ctx, prNumber, "Locus fixes CI only on its own.", "fix-ci");
  if (!found.ok) return found.result;
  const { read, issueNumber } = found;
  const person = found.owner === "person";
  const { pr } = read;
  // A person's PR has no task issue: its round is told in replies on the PR alone.
  const issue = person ? personTaskIssue(pr, "Make its failing CI pass") : read.linkedIssue;
  if (!issue || (!person && !roundCanStart(issue.labels))) {
    const note = `#${issueNumber} is not in review, so Locus did not work on CI for PR #${prNumber}.`;
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }
  const { triggeredAt: runCreatedAt, budget } = runFacts(ctx, read);
  const headSha = pr.head.sha;
  const source = parseCiSource(ctx.command, headSha);
  // When CI failed: an automatic round's trigger (the text then is what the round works from).
  let failedAt: string | null = null;
  if (source.kind === "suite") failedAt = await gateway.ci.suiteUpdatedAt(source.id);
  if (source.kind === "run") {
    // A run on an older head says nothing about the PR as it is now.
    const ran = await gateway.ci.runHead(source.id);
    failedAt = ran?.updatedAt ?? null;
    if (ran && ran.sha !== headSha) {
      const note = `CI [run ${source.id}](${ran.url}) failed on ${ran.sha.slice(0, 7)}, but PR #${prNumber}'s head is now ${headSha.slice(0, 7)}, so Locus did nothing.`;
      await gateway.createComment(prNumber, note);
      return { tasks: [], note };
    }
  }
  const failures = await readCiFailures(gateway.ci, source);
  if (failures.checks.length === 0) {
    const note = `Nothing has failed in CI on PR #${prNumber}'s head (${headSha.slice(0, 7)}), so Locus did nothing.`;
    await gateway.createComment(prNumber, note);
    return { tasks: [], note };
  }
  const writers = createWriters(ctx);
  // A writer's `/locus fix-ci`, or for an automatic round the failure itself (never after the run's creation).
  const failure =
    failedAt !== null && Date.parse(failedAt) < runCreatedAt.getTime()
      ? { fallback: { at: new Date(failedAt), what: "the CI failure" } }
      : {};
  const { at: triggeredAt, requester } = await commandTriggerAct(
    ctx,
    source.kind === "commit" ? commandActs(read.comments, ["fix-ci"]) : [],
    { runCreatedAt, writers, target: `PR #${prNumber}`, ...failure },
  );
  const base = { issue: issueNumber, title: issue.title };
  if (budget && budget.remaining() <= 0) {
    const reason = budget.refusal();
    await gateway.createComment(
      prNumber,
      ctx.mask(safeToPublish(`Locus did not work on the CI failure: ${reason}.`)),
    );
    return { tasks: [reportWithoutRun(base, "failed", reason)] };
  }

  const opening = `Fixing the CI failure on PR #${prNumber}.`;
  const round = person
    ? await personRound(ctx, prNumber, opening)
    : await startPullRequestRound(ctx, issue, opening);

  await git.fetchBranches([pr.head.ref, pr.base.ref]);
  const headRef = git.remoteRef(pr.head.ref);
  const baseRef = git.remoteRef(pr.base.ref);
  const remoteHead = (await git.revParse(headRef)) ?? "";
  const wip = wipBranch(issueNumber);
  // Someone else's saved work (this round does not continue it): left as it is.
  const otherWip = (await git.remoteBranches([wip])).has(wip);
  const path = join(ctx.run.worktreeRoot, "locus-worktrees", `fix-ci-${prNumber}`);
  const worktree = await git.worktreeAdd(path, pr.head.ref, headRef);
  const finish = round.finish;

  const recorder = createEventRecorder((line) => ctx.log.info(ctx.mask(line)));
  const asPrompted = promptIssueAtTrigger(issue, triggeredAt, await writers.trustFor(commentAuthors(issue)));
  const prompt = buildTaskPrompt({
    repository: await readRepositoryContext(worktree, await trustedCommit(ctx)),
    issue: asPrompted,
  });
  let unrelated: string | undefined;
  // Only the built-in agent can be offered a tool it may or may not call (see renderFixCiTask).
  const canReportUnrelated = ctx.runner.name === "builtin";
  const result = await runAgentLive(ctx, {
    title: `Agent: fix CI on PR #${prNumber}`,
    prompt: {
      ...prompt,
      task: renderFixCiTask({
        issue: asPrompted,
        pr: { number: prNumber, diff: await git.branchDiff(baseRef, headRef) },
        failures,
        canReportUnrelated,
      }),
    },
    cwd: worktree.cwd,
    recorder,
    writeStatus: round.progress,
    budget,
    lastWriteAt: ctx.clock.now().getTime(),
    tools: canReportUnrelated ? [createReportUnrelatedTool((reason) => (unrelated = reason))] : [],
  });
  const measured = {
    ...base,
    durationMs: ctx.clock.now().getTime() - started,
    usage: result.usage ?? NO_USAGE,
    costUsd: result.costUsd,
    cards: recorder.cards(),
    summary: ctx.mask(result.summary),
  };
  const { leaveOut: leftOut, listed } = await scratchIn(worktree, result);
  const comment = (outcome: FixCiOutcome) =>
    gateway.createComment(prNumber, ctx.mask(renderFixCiComment(failures, headSha, outcome)));

  /** Keeps the work on the wip branch, says why on the PR, and ends the round failed. */
  const fail = async (
    reason: string,
    headline: string,
    say: (checkpoint?: string, wipRefused?: boolean) => string,
  ) => {
    if (otherWip) ctx.log.warn(`Not saving this round's work: ${wip} holds other saved work.`);
    let wipRefused = false;
    const checkpoint = otherWip
      ? undefined
      : await saveCheckpoint({
          worktree,
          issue,
          reason,
          summary: measured.summary,
          startSha: remoteHead,
          remoteWip: "",
          leaveOut: leftOut,
        }).catch((error: unknown) => {
          // The rule that refused the push (a ruleset on every branch) may refuse the wip branch too: said, not thrown.
          if (pushRefusalOf(String(error)) === undefined) throw error;
          wipRefused = true;
          return undefined;
        });
    await gateway.createComment(prNumber, ctx.mask(say(checkpoint, wipRefused)));
    return finish(
      { ...measured, status: "failed", reason, ...(checkpoint ? { checkpoint } : {}) },
      headline,
      "fail",
    );
  };

  if (!result.success) {
    const reason = ctx.mask(describeStopUnderCap(result, ctx.config.agent.maxCostUsd, budget));
    return fail(reason, `Failed to fix CI: ${reason}`, (checkpoint) =>
      renderFailureComment({ reason, checkpoint, logTail: recorder.tail(30), runUrl: ctx.run.url }),
    );
  }
  if (unrelated !== undefined) {
    await comment({ kind: "unrelated", reason: unrelated, summary: measured.summary });
    await git.worktreeRemove(path);
    return finish(
      { ...measured, status: "no-changes", reason: `unrelated failure: ${unrelated}` },
      `CI failed on PR #${prNumber} for a reason unrelated to it; nothing changed.`,
      "deliver",
    );
  }
  const stage = await worktree.stageAll(leftOut, listed);
  if (!stage.staged) {
    await comment({ kind: "unchanged", summary: measured.summary });
    await git.worktreeRemove(path);
    return finish(
      { ...measured, status: "no-changes", reason: "the agent made no change" },
      `Looked at the CI failure on PR #${prNumber}; nothing changed.`,
      "deliver",
    );
  }
  const trailers = person ? await requesterTrailers(ctx, requester) : [];
  await worktree.commit(withTrailers(fixCiCommitMessage(issueNumber), trailers));
  const files = (await worktree.diffStat(remoteHead, "HEAD")).map((file) => file.path);
  // The lease is the head Locus read: the push only fast-forwards, and a push someone made meanwhile
  // (on a person's PR, their own) is never overwritten nor rebased onto.
  const pushed = await pushOnTop(worktree, pr.head.ref, remoteHead);
  if (!pushed.ok && pushed.refusal) {
    const { refusal } = pushed;
    const reason = `GitHub refused the push of ${pr.head.ref}: ${refusal.rules.join(" ")}`;
    return fail(reason, `Failed: ${reason}.`, (checkpoint, wipRefused = false) =>
      renderFailureComment({
        reason,
        checkpoint,
        logTail: recorder.tail(30),
        runUrl: ctx.run.url,
        pushRefusal: { ...refusal, wipRefused },
      }),
    );
  }
  if (!pushed.ok) {
    ctx.log.warn(ctx.mask(`Not pushed: ${pushed.why}`));
    const reason = `${pr.head.ref} moved while Locus worked, so its fix was not pushed`;
    return fail(reason, `Failed: ${reason}.`, (checkpoint) =>
      toGitHubMarkdown(
        root(
          paragraph(
            "Locus did not push: ",
            plain(reason),
            ".",
            ...(checkpoint ? [" Its fix is on ", code(checkpoint), "."] : []),
          ),
        ),
      ),
    );
  }
  await comment({
    kind: "fixed",
    sha: pushed.sha,
    files,
    summary: [measured.summary, leftOutNote(leftOut), withheldNote(stage.withheld)]
      .filter(Boolean)
      .join("\n\n"),
  });
  await git.worktreeRemove(path);
  return finish(
    { ...measured, status: "succeeded", pr: { number: prNumber, url: pr.url } },
    `Pushed a fix for the CI failure on PR #${prNumber}.`,
    "deliver",
  );
}
