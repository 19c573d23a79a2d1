/**
 * One coding task, start to finish: labels → in-progress, the status comment,
 * the prompt, the agent, then either a commit, a push and a pull request
 * (labels → in-review, task-delivery.ts), or questions the agent asked (posted
 * on the issue, the work kept on the wip branch, labels → waiting until a
 * writer answers, task-question.ts), or a failure that keeps the work on the
 * wip branch and says why (labels → failed, task-failure.ts). Issue mode runs
 * it in a worktree per issue, sprint mode in one worktree, task after task.
 */
import type { TaskIssue } from "../github/index.ts";
import { issueBranch, wipBranch } from "../naming/branches.ts";
import { buildTaskPrompt } from "../prompt/task-prompt.ts";
import { createConflictResolver } from "./agent-conflict-resolver.ts";
import { rebaseResolving } from "../stack/rebase-resolving.ts";
import { renderConflictAnswers } from "../prompt/rebase-conflict-prompt.ts";
import type { ActionContext } from "./context.ts";
import { commentAuthors, promptIssue } from "./prompt-issue.ts";
import { createWriters } from "../trust/writers.ts";
import { appCheckedRequester } from "../trust/app-checked-requester.ts";
import { selfLogins } from "../trust/self-logins.ts";
import { readRepositoryContext, trustedCommit } from "./repository-context.ts";
import { taskTrigger } from "./task-trigger.ts";
import type { StatusView } from "../status/status-comment.ts";
import { statusRecordIn } from "../status/status-store.ts";
import { statusTarget } from "../lifecycle/apply-effects.ts";
import { describeStopUnderCap } from "./stop-reason.ts";
import { findTaskStart } from "./task-start.ts";
import { reportWithoutRun } from "./task-report.ts";
import { createEventRecorder } from "./tool-cards.ts";
import { runAgentLive } from "./run-agent-live.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import { NO_USAGE } from "../agent/usage.ts";
import type { TaskOutcome, TaskPlan } from "./task-plan.ts";
import { advance, applyStep, messageOf, type TaskSession } from "./task-session.ts";
import { conflictReason, failTask } from "./task-failure.ts";
import { checkpointConflictQuestions, waitForAnswer } from "./task-question.ts";
import { deliverTask } from "./task-delivery.ts";
import { answeredQuestions, withTitleNote } from "./task-prompt-inputs.ts";
import { imagesForTask, withImagesLeftOut } from "./task-images.ts";
import { startRefusal } from "./task-refusals.ts";
import { setupRanLine } from "../render/setup-section.ts";

export async function runTask(ctx: ActionContext, plan: TaskPlan): Promise<TaskOutcome> {
  const { gateway, log } = ctx;
  const branch = issueBranch(plan.issue.number);
  const startedAt = ctx.clock.now().getTime();
  const recorder = createEventRecorder((line) => log.info(ctx.mask(line)));

  const record = statusRecordIn(plan.issue.comments, selfLogins(ctx));
  const state = record.state;
  const initial = taskState(plan.issue.labels, state);
  const starting = step(initial, {
    kind: "started",
    runUrl: ctx.run.url,
    unsandboxed: ctx.run.unsandboxed === true,
    setup: ctx.setup && setupRanLine(ctx.setup.plan),
    ...(ctx.modelChosen === true ? { model: ctx.model } : {}),
  });
  if ("refused" in starting) {
    return {
      report: reportWithoutRun(
        { issue: plan.issue.number, title: plan.issue.title },
        "skipped",
        starting.refused,
      ),
      labels: plan.issue.labels,
      attempts: state.attempts,
    };
  }
  const writers = plan.writers ?? createWriters(ctx);
  // The app checked who asked before it dispatched this run: no second lookup for them.
  const checked = appCheckedRequester(
    { actor: ctx.run.actor, delivery: ctx.delivery, bot: ctx.identity.login },
    record,
  );
  if (checked) writers.checkedByApp(checked);
  // The title and description are those a writer vouched for by triggering the task (task-trigger.ts).
  const trigger = await taskTrigger(ctx, plan.issue, {
    runCreatedAt: plan.triggeredAt,
    sprint: plan.sprint !== undefined,
    ...(state.waiting ? { waitingSince: state.waiting.askedAt } : {}),
    writers,
  });
  if (trigger.refused) {
    log.warn(`Not starting #${plan.issue.number}: ${trigger.refused}.`);
    return {
      report: reportWithoutRun(
        { issue: plan.issue.number, title: plan.issue.title },
        "skipped",
        trigger.refused,
      ),
      labels: plan.issue.labels,
      attempts: state.attempts,
    };
  }
  const issue: TaskIssue = { ...plan.issue, title: trigger.title };
  const s: TaskSession = {
    ctx,
    plan,
    issue,
    found: state,
    target: statusTarget(gateway, issue, record, ctx.mask),
    recorder,
    startedAt,
    task: initial,
    resolving: { costUsd: 0, usage: NO_USAGE },
  };
  const progress = (view: StatusView) => advance(s, { kind: "progress", view });
  // Over the daily cap, or a model with no price: not started (task-refusals.ts).
  const refusal = startRefusal(ctx, plan.budget);
  if (refusal) {
    await advance(s, refusal);
    log.warn(`Not starting #${issue.number}: ${refusal.reason}`);
    return {
      report: reportWithoutRun({ issue: issue.number, title: issue.title }, "skipped", refusal.reason),
      labels: s.task.labels,
      attempts: state.attempts,
    };
  }
  // Git finds where the task starts and checks it out while GitHub takes the start's moment; a
  // failure of either is handled as before, once the moment is written (or its write failed).
  const exclusive = plan.exclusive ?? ((fn) => fn());
  const located = exclusive(async () => {
    const at = await findTaskStart({
      git: ctx.git,
      issue: issue.number,
      branch,
      parentRef: plan.parentRef,
      useCheckpoint: ctx.config.retry["fromCheckpoint"] !== false,
    });
    return [at, await plan.checkout(branch, at.ref)] as const;
  });
  located.catch(() => undefined);
  // The labels, the status comment and the sprint dashboard change at one moment: one request.
  await applyStep(s, starting, plan.alongsideStart);

  try {
    const [found, worktree] = await located;
    let start = found;
    s.start = start;
    s.worktree = worktree;
    const trusted = await trustedCommit(ctx);
    const issuePrompt = withTitleNote(
      promptIssue(issue, trigger.triggeredAt, await writers.trustFor(commentAuthors(issue))),
      trigger.titleWithheld,
    );
    const answered = state.waiting
      ? await answeredQuestions(issue, trigger.triggeredAt, writers, state.waiting)
      : undefined;
    if (start.rebaseOnto) {
      // The parent moved since the work was saved: the saved work is replayed onto it, never dropped.
      const wip = wipBranch(issue.number);
      const resolver = createConflictResolver(ctx, {
        worktree,
        prompt: buildTaskPrompt({
          repository: await readRepositoryContext(worktree, trusted),
          issue: issuePrompt,
        }),
        ...(answered ? { notes: renderConflictAnswers(answered) } : {}),
        recorder,
        writeStatus: progress,
        budget: plan.budget,
      });
      const upstream = (await worktree.mergeBase(start.rebaseOnto, "HEAD")) ?? start.rebaseOnto;
      const rebased = await rebaseResolving(worktree, { onto: start.rebaseOnto, upstream }, (stop) =>
        resolver.resolve(stop, { what: `the work saved on \`${wip}\``, onto: plan.prBase }),
      );
      s.resolving = resolver.spent();
      await advance(s, { kind: "spent", usd: s.resolving.costUsd, at: ctx.clock.now() });
      if (!rebased.ok) {
        log.warn(`The saved work of ${wip} conflicts with ${plan.prBase} in ${rebased.files.join(", ")}.`);
        // The agent never got to judge the conflict (a limit, the API, a cancel): a failure, not a question.
        const stopped = resolver.lastRun();
        if (stopped && !stopped.success) {
          const why = describeStopUnderCap(stopped, ctx.config.agent.maxCostUsd, plan.budget);
          return await failTask(
            s,
            `resolving the conflicts of \`${wip}\` with \`${plan.prBase}\` stopped: ${why}`,
            { conflicts: rebased.files },
          );
        }
        return await waitForAnswer(
          s,
          checkpointConflictQuestions(wip, plan.prBase, rebased.files, resolver.said()),
          { keepSaved: wip },
        );
      }
      log.info(`Rebased the saved work of ${wip} onto ${plan.prBase}.`);
    }
    if (plan.rebaseOntoParent && start.remoteBranch && !start.checkpoint) {
      if (!(await worktree.isAncestor(plan.parentRef, "HEAD"))) {
        const rebased = await worktree.rebase(plan.parentRef);
        if (!rebased.ok) {
          return await failTask(s, conflictReason(plan.prBase, rebased.conflicts), {
            conflicts: rebased.conflicts,
          });
        }
        start = {
          ...start,
          ref: "HEAD",
          deliverFrom: (await worktree.revParse("HEAD")) ?? start.deliverFrom,
        };
        s.start = start;
      }
    }
    if (start.checkpoint) log.info(`Continuing from ${start.checkpoint.branch}: ${start.checkpoint.reason}`);

    // Before any model call: the agent starts from what setup installed, or the task fails here.
    const setup = await ctx.setup?.run(worktree.cwd, ctx.signal);
    if (setup && !setup.ok) {
      const how = setup.timedOut ? "timed out" : `exited with ${setup.exitCode}`;
      log.warn(`Setup failed before the agent started: ${setup.command} ${how}.`);
      return await failTask(s, `setup failed before the agent started: \`${setup.command}\` ${how}`, {
        setupFailure: setup,
      });
    }
    // Before any model call: attachments left out are said on the issue, and the task goes on.
    const images = await imagesForTask(s, issuePrompt);
    const prompt = buildTaskPrompt({
      repository: {
        ...(await readRepositoryContext(worktree, trusted)),
        ...(setup && setup.ran.length > 0 ? { setup: setup.ran } : {}),
      },
      issue: withImagesLeftOut(issuePrompt, images),
      ...(plan.sprint ? { sprint: plan.sprint } : {}),
      ...(start.checkpoint ? { checkpoint: start.checkpoint } : {}),
      ...(answered ? { answered } : {}),
    });
    const result = await runAgentLive(ctx, {
      title: `Agent: #${issue.number} ${issue.title}`,
      prompt: images.images.length > 0 ? { ...prompt, images: images.images } : prompt,
      cwd: worktree.cwd,
      recorder,
      writeStatus: progress,
      budget: plan.budget,
      details: images.details,
    });
    s.result = result;
    if (!result.success)
      return await failTask(s, describeStopUnderCap(result, ctx.config.agent.maxCostUsd, plan.budget));
    if (result.questions.length > 0) return await waitForAnswer(s, result.questions);
    return await deliverTask(s, start, worktree, result);
  } catch (error) {
    log.error(ctx.mask(`Task #${issue.number} failed inside Locus: ${messageOf(error)}`));
    return await failTask(s, `Locus error: ${messageOf(error)}`, { fault: true });
  }
}
