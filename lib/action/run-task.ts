/**
 * One coding task, start to finish: labels → in-progress, the status comment,
 * the prompt, the agent, then either a commit, a push and a pull request
 * (labels → in-review), or questions the agent asked (posted on the issue,
 * the work kept on the wip branch, labels → waiting until a writer answers),
 * or a failure that keeps the work on the wip branch and says why (labels →
 * failed). Issue mode runs it in a worktree per issue, sprint mode in one
 * worktree, task after task.
 */
import type { RunResult } from "../agent/runner.ts";
import { addUsage, NO_USAGE, type Usage } from "../agent/usage.ts";
import type { GitClient } from "../git/git-client.ts";
import type { MomentWrite, TaskIssue } from "../github/index.ts";
import { issueBranch, wipBranch } from "../naming/branches.ts";
import { taskCommitMessage } from "../naming/commit.ts";
import {
  buildTaskPrompt,
  type AnsweredQuestions,
  type PromptIssue,
  type SprintContext,
} from "../prompt/task-prompt.ts";
import { answersAfter } from "./question-answer.ts";
import { unpricedModelRefusal } from "./unpriced-model.ts";
import { leftOutNote, scratchFiles } from "./scratch-files.ts";
import { saveCheckpoint } from "./checkpoint.ts";
import { createConflictResolver } from "./agent-conflict-resolver.ts";
import { rebaseResolving } from "./rebase-resolving.ts";
import { renderConflictAnswers } from "../prompt/rebase-conflict-prompt.ts";
import type { ActionContext } from "./context.ts";
import { deliverPullRequest } from "./deliver-pull-request.ts";
import { commentAuthors, promptIssue } from "./prompt-issue.ts";
import { createWriters, type Writers } from "./writers.ts";
import { selfLogins } from "./self-logins.ts";
import { readRepositoryContext, trustedCommit } from "./repository-context.ts";
import { taskTrigger } from "./task-trigger.ts";
import type { StatusState, StatusView } from "../status/status-comment.ts";
import { createStatusWriter, statusRecordIn } from "../status/status-store.ts";
import type { DailyBudget } from "./daily-budget.ts";
import { describeStopUnderCap } from "./stop-reason.ts";
import { findTaskStart, type TaskStart } from "./task-start.ts";
import { reportWithoutRun, type TaskReport } from "./task-report.ts";
import { createEventRecorder } from "./tool-cards.ts";
import { runAgentLive } from "./run-agent-live.ts";
import { step, taskState, type Step, type TaskEvent, type TaskState } from "../task/lifecycle.ts";
import { applyEffects, type Applied, type EffectTarget } from "../task/apply-effects.ts";

export interface TaskPlan {
  /** As read once for this run, with edit histories; its comments include the status comment. */
  readonly issue: TaskIssue;
  /** The branch the PR targets: the base branch, or the previous sprint task's. */
  readonly prBase: string;
  /** The remote ref of `prBase`, already fetched: where a fresh attempt starts. */
  readonly parentRef: string;
  readonly sprint?: SprintContext;
  /** The PR of the previous sprint task. */
  readonly stackedOn?: number;
  /** Puts `branch` at `ref` in a clean working directory and answers its git client. */
  readonly checkout: (branch: string, ref: string) => Promise<GitClient>;
  /** Sprint tasks retrying an existing branch rebase it onto a parent that moved. */
  readonly rebaseOntoParent: boolean;
  /** When GitHub created the run: the latest moment a writer's act could have triggered the task. */
  readonly triggeredAt: Date;
  /** Serialises the steps that touch the shared repository (fetch, worktree add) across parallel tasks. */
  readonly exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The daily cost cap, when config sets one: checked before the task starts, its remainder caps the task. */
  readonly budget?: DailyBudget;
  /** The run's permission lookups, shared by its tasks; the task makes its own when absent. */
  readonly writers?: Writers;
  /** Other writes of the task's start moment (the sprint dashboard), sent with its labels and status. */
  readonly alongsideStart?: readonly MomentWrite[];
}

export interface TaskOutcome {
  readonly report: TaskReport;
  /** The worktree, for callers that clean up after success. */
  readonly worktree?: GitClient;
  /** Files a rebase before the task conflicted in (sprint mode reports them on the tracking issue). */
  readonly conflicts?: readonly string[];
  /** The issue's labels and attempt count after the task, as Locus last wrote them. */
  readonly labels: readonly string[];
  readonly attempts: number;
}

const LOG_TAIL_LINES = 30;

export async function runTask(ctx: ActionContext, plan: TaskPlan): Promise<TaskOutcome> {
  const { gateway, log } = ctx;
  const branch = issueBranch(plan.issue.number);
  const started = ctx.clock.now().getTime();
  const recorder = createEventRecorder((line) => log.info(ctx.mask(line)));
  const elapsed = () => ctx.clock.now().getTime() - started;

  const record = statusRecordIn(plan.issue.comments, selfLogins(ctx));
  const state = record.state;
  let task: TaskState = taskState(plan.issue.labels, state);
  const starting = step(task, {
    kind: "started",
    runUrl: ctx.run.url,
    unsandboxed: ctx.run.unsandboxed === true,
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
  const base = { issue: issue.number, title: issue.title, usage: NO_USAGE, costUsd: 0 };
  const target: EffectTarget = {
    gateway,
    issue,
    writeStatus: createStatusWriter(gateway, issue, record),
    mask: ctx.mask,
  };
  /** A lifecycle step, applied: its labels and status comment in one moment, then its comments. */
  async function apply(next: Step, alongside: readonly MomentWrite[] = []): Promise<Applied> {
    if ("refused" in next) throw new Error(`#${issue.number}: ${next.refused}`);
    task = next.state;
    const applied = await applyEffects(target, next.effects, alongside);
    if (applied.labels) task = { ...task, labels: applied.labels };
    return applied;
  }
  /** What happened, as the lifecycle's event; what it spent also counts against the day's cap. */
  async function advance(event: TaskEvent, alongside?: readonly MomentWrite[]): Promise<Applied> {
    if ("usd" in event) plan.budget?.record(event.usd);
    return apply(step(task, event), alongside);
  }
  const progress = (view: StatusView) => advance({ kind: "progress", view });
  // Over the daily cap, or a model with no price: not started. The cap is no failure (nothing ran, no
  // attempt is counted, no work exists to lose) and is said once a UTC day; the stale sweep starts the
  // task on a later day. An unpriced model clears the status until a person fixes the config.
  const refusal: TaskEvent | undefined =
    plan.budget && plan.budget.remaining() <= 0
      ? { kind: "over-budget", reason: plan.budget.refusal(), at: ctx.clock.now() }
      : unpricedRefusal(ctx);
  if (refusal) {
    await advance(refusal);
    log.warn(`Not starting #${issue.number}: ${refusal.reason}`);
    return {
      report: reportWithoutRun({ issue: issue.number, title: issue.title }, "skipped", refusal.reason),
      labels: task.labels,
      attempts: state.attempts,
    };
  }
  // The labels, the status comment and the sprint dashboard change at one moment: one request.
  await apply(starting, plan.alongsideStart);
  // What resolving a checkpoint's rebase conflicts cost: spent before the task's own agent ran.
  let resolving: { readonly costUsd: number; readonly usage: Usage } = { costUsd: 0, usage: NO_USAGE };
  const costOf = (run: RunResult | undefined) => resolving.costUsd + (run?.costUsd ?? 0);
  const usageOf = (run: RunResult | undefined) => addUsage(resolving.usage, run?.usage ?? NO_USAGE);

  let start: TaskStart | undefined;
  let worktree: GitClient | undefined;
  let result: RunResult | undefined;

  async function fail(
    reason: string,
    options: { fault?: boolean; conflicts?: readonly string[]; noChanges?: boolean } = {},
  ): Promise<TaskOutcome> {
    const { fault, conflicts } = options;
    const masked = ctx.mask(reason);
    let checkpoint: string | undefined;
    if (worktree && start) {
      try {
        checkpoint = await saveCheckpoint({
          worktree,
          issue,
          reason: masked,
          summary: ctx.mask(result?.summary ?? ""),
          startSha: (await worktree.revParse(start.ref)) ?? "",
          remoteWip: start.remoteWip,
          leaveOut: await scratchIn(worktree, result),
        });
        // Said in the log too: the comment below needs GitHub, and the token may be what failed.
        if (checkpoint) log.info(`The work so far is saved on ${checkpoint}.`);
      } catch (error) {
        log.error(ctx.mask(`Could not save a checkpoint: ${messageOf(error)}`));
      }
    }
    const spent = { usd: result?.costUsd ?? 0, at: ctx.clock.now() };
    // A run stopped by `/locus cancel` finds its issue cleared: that is no failure, and it stays cleared.
    if (ctx.signal.aborted) {
      const now = (await gateway.getIssue(issue.number))?.labels ?? task.labels;
      const cancel = step(task, { kind: "cancelled", labels: now, checkpoint, ...spent });
      if (!("refused" in cancel)) return cancelled(cancel, spent.usd, checkpoint);
      task = { ...task, labels: now };
    }
    await advance({
      kind: "failed",
      reason: masked,
      checkpoint,
      comment: {
        repositoryUrl: ctx.run.repositoryUrl,
        logTail: recorder.tail(LOG_TAIL_LINES),
        runUrl: ctx.run.url,
        ...(result?.summary ? { agentSaid: result.summary } : {}),
      },
      ...spent,
    });
    return {
      report: {
        ...base,
        status: options.noChanges ? "no-changes" : "failed",
        reason: masked,
        durationMs: elapsed(),
        usage: usageOf(result),
        costUsd: costOf(result),
        cards: recorder.cards(),
        ...(checkpoint ? { checkpoint } : {}),
        ...(result?.summary ? { summary: ctx.mask(result.summary) } : {}),
        ...(fault ? { fault } : {}),
      },
      worktree,
      ...(conflicts ? { conflicts } : {}),
      labels: task.labels,
      attempts: task.attempts,
    };
  }

  async function cancelled(cancel: Step, usd: number, checkpoint: string | undefined): Promise<TaskOutcome> {
    plan.budget?.record(usd);
    await apply(cancel);
    return {
      report: {
        ...base,
        status: "skipped",
        reason: "cancelled with /locus cancel",
        durationMs: elapsed(),
        usage: usageOf(result),
        costUsd: costOf(result),
        cards: recorder.cards(),
        ...(checkpoint ? { checkpoint } : {}),
      },
      worktree,
      labels: task.labels,
      attempts: task.attempts,
    };
  }

  /**
   * The agent asked: its questions go on the issue together, the work to the wip branch, and the task
   * waits. `keepSaved`: the wip branch already holds the work as it should stay (a checkpoint whose
   * rebase stopped on a conflict), so nothing in the worktree is saved over it.
   */
  async function wait(
    questions: readonly string[],
    options: { keepSaved?: string } = {},
  ): Promise<TaskOutcome> {
    const asked = result;
    let checkpoint = options.keepSaved;
    if (worktree && start && checkpoint === undefined) {
      checkpoint = await saveCheckpoint({
        worktree,
        issue,
        reason: "it asked a question and waits for the answer",
        summary: ctx.mask(asked?.summary ?? ""),
        startSha: (await worktree.revParse(start.ref)) ?? "",
        remoteWip: start.remoteWip,
        leaveOut: await scratchIn(worktree, asked),
      });
    }
    const masked = questions.map((question) => ctx.mask(question));
    const requester = state.requester ?? (ctx.run.actor.endsWith("[bot]") ? undefined : ctx.run.actor);
    // The question goes out first: the status comment records where it is.
    const [comment] = (
      await advance({
        kind: "asked",
        questions: masked,
        requester,
        checkpoint,
        usd: asked?.costUsd ?? 0,
        at: ctx.clock.now(),
      })
    ).comments;
    if (comment) {
      await advance({
        kind: "question-posted",
        questions: masked,
        commentId: comment.id,
        askedAt: comment.createdAt,
      });
    }
    return {
      report: {
        ...base,
        status: "waiting",
        reason: `waiting for an answer: ${masked.join(" / ").slice(0, 300)}`,
        durationMs: elapsed(),
        usage: usageOf(asked),
        costUsd: costOf(asked),
        cards: recorder.cards(),
        ...(checkpoint ? { checkpoint } : {}),
        ...(asked?.summary ? { summary: ctx.mask(asked.summary) } : {}),
      },
      worktree,
      labels: task.labels,
      attempts: task.attempts,
    };
  }

  try {
    const exclusive = plan.exclusive ?? ((fn) => fn());
    [start, worktree] = await exclusive(async () => {
      const found = await findTaskStart({
        git: ctx.git,
        issue: issue.number,
        branch,
        parentRef: plan.parentRef,
        useCheckpoint: ctx.config.retry["fromCheckpoint"] !== false,
      });
      return [found, await plan.checkout(branch, found.ref)] as const;
    });
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
      resolving = resolver.spent();
      await advance({ kind: "spent", usd: resolving.costUsd, at: ctx.clock.now() });
      if (!rebased.ok) {
        log.warn(`The saved work of ${wip} conflicts with ${plan.prBase} in ${rebased.files.join(", ")}.`);
        // The agent never got to judge the conflict (a limit, the API, a cancel): a failure, not a question.
        const stopped = resolver.lastRun();
        if (stopped && !stopped.success) {
          const why = describeStopUnderCap(stopped, ctx.config.agent.maxCostUsd, plan.budget);
          return await fail(`resolving the conflicts of \`${wip}\` with \`${plan.prBase}\` stopped: ${why}`, {
            conflicts: rebased.files,
          });
        }
        return await wait(checkpointConflictQuestions(wip, plan.prBase, rebased.files, resolver.said()), {
          keepSaved: wip,
        });
      }
      log.info(`Rebased the saved work of ${wip} onto ${plan.prBase}.`);
    }
    if (plan.rebaseOntoParent && start.remoteBranch && !start.checkpoint) {
      if (!(await worktree.isAncestor(plan.parentRef, "HEAD"))) {
        const rebased = await worktree.rebase(plan.parentRef);
        if (!rebased.ok) {
          return await fail(conflictReason(plan.prBase, rebased.conflicts), { conflicts: rebased.conflicts });
        }
        start = {
          ...start,
          ref: "HEAD",
          deliverFrom: (await worktree.revParse("HEAD")) ?? start.deliverFrom,
        };
      }
    }
    if (start.checkpoint) log.info(`Continuing from ${start.checkpoint.branch}: ${start.checkpoint.reason}`);

    const prompt = buildTaskPrompt({
      repository: await readRepositoryContext(worktree, trusted),
      issue: issuePrompt,
      ...(plan.sprint ? { sprint: plan.sprint } : {}),
      ...(start.checkpoint ? { checkpoint: start.checkpoint } : {}),
      ...(answered ? { answered } : {}),
    });
    result = await runAgentLive(ctx, {
      title: `Agent: #${issue.number} ${issue.title}`,
      prompt,
      cwd: worktree.cwd,
      recorder,
      writeStatus: progress,
      budget: plan.budget,
    });
    if (!result.success)
      return await fail(describeStopUnderCap(result, ctx.config.agent.maxCostUsd, plan.budget));
    if (result.questions.length > 0) return await wait(result.questions);

    if (start.checkpoint) await worktree.resetSoft(start.deliverFrom);
    const leftOut = await scratchIn(worktree, result);
    if (await worktree.stageAll(leftOut)) await worktree.commit(taskCommitMessage(issue));
    // The summary says what stayed out, so nobody wonders where a generated file went.
    result = { ...result, summary: [result.summary, leftOutNote(leftOut)].filter(Boolean).join("\n\n") };
    if (!(await worktree.differs(plan.parentRef, "HEAD"))) {
      return await fail("the agent made no change to the repository", { noChanges: true });
    }
    const pushed = await worktree.push(branch, { expect: start.remoteBranch });
    if (!pushed.ok) {
      return await fail(
        pushed.rejected
          ? `${branch} changed on GitHub while Locus worked on it, so Locus did not overwrite it`
          : `pushing ${branch} failed: ${pushed.message}`,
      );
    }
    const pr = await deliverPullRequest(ctx, {
      issue,
      branch,
      prBase: plan.prBase,
      result,
      files: await worktree.diffStat(plan.parentRef, "HEAD"),
      branchExisted: start.remoteBranch !== "",
      ...(plan.stackedOn === undefined ? {} : { stackedOn: plan.stackedOn }),
    });
    if (start.remoteWip) await worktree.deleteRemoteBranch(wipBranch(issue.number), start.remoteWip);
    // The new PR's label, the issue's labels and the status comment: one moment, one request.
    await advance(
      { kind: "delivered", pr: pr.number, usd: result.costUsd, at: ctx.clock.now() },
      pr.labelWrite ? [pr.labelWrite] : [],
    );
    return {
      report: {
        ...base,
        status: "succeeded",
        pr,
        durationMs: elapsed(),
        usage: usageOf(result),
        costUsd: costOf(result),
        cards: recorder.cards(),
        summary: ctx.mask(result.summary),
      },
      worktree,
      labels: task.labels,
      attempts: task.attempts,
    };
  } catch (error) {
    log.error(ctx.mask(`Task #${issue.number} failed inside Locus: ${messageOf(error)}`));
    return await fail(`Locus error: ${messageOf(error)}`, { fault: true });
  }
}

/**
 * The questions the last attempt asked and what people with write access
 * answered after them, as it stood at the trigger. The app queued the task on
 * a writer's answer; the permission is checked again here because anyone with
 * write access can dispatch a run by hand.
 */
async function answeredQuestions(
  issue: TaskIssue,
  triggeredAt: Date,
  writers: Writers,
  waiting: NonNullable<StatusState["waiting"]>,
): Promise<AnsweredQuestions> {
  const candidates = answersAfter(issue.comments, waiting.commentId, triggeredAt);
  // The same writer rule, and the same cached lookups, as the rest of the prompt.
  const trust = await writers.trustFor(candidates.map((answer) => answer.author));
  return {
    questions: waiting.questions,
    answers: candidates.filter((answer) => trust.isWriter(answer.author)),
  };
}

/** The prompt says when the title as it stood at the trigger is lost and a neutral one stands in. */
function withTitleNote(issue: PromptIssue, why: string | undefined): PromptIssue {
  return why === undefined
    ? issue
    : { ...issue, withheld: [`The issue title: ${why}.`, ...(issue.withheld ?? [])] };
}

function unpricedRefusal(ctx: ActionContext): Extract<TaskEvent, { kind: "unpriced-refused" }> | undefined {
  const reason = unpricedModelRefusal(ctx.runner.name, ctx.model, ctx.config.agent.pricing);
  return reason === undefined ? undefined : { kind: "unpriced-refused", reason };
}

/** Untracked scratch files and build output the agent's commands left in the worktree (scratch-files.ts). */
async function scratchIn(worktree: GitClient, result: RunResult | undefined): Promise<string[]> {
  return scratchFiles(
    await worktree.untrackedFiles(),
    result?.filesChanged ?? [],
    await worktree.listFiles(),
  );
}

/**
 * What a task whose saved work conflicts with its moved parent asks: Locus's own question naming the
 * files (and what the agent said of them), then any question the agent asked itself.
 */
function checkpointConflictQuestions(
  wip: string,
  parent: string,
  files: readonly string[],
  said: { readonly summary: string; readonly questions: readonly string[] },
): string[] {
  const list = files.length > 0 ? files.map((file) => `\`${file}\``).join(", ") : "(unknown files)";
  const summary = said.summary.replace(/\s+/g, " ").trim().slice(0, 1_000);
  const why = summary
    ? ` The agent could not reconcile them; it said: ${summary}`
    : " The agent could not reconcile them.";
  return [
    `The work saved on \`${wip}\` was started on an older \`${parent}\`, and replaying it onto \`${parent}\` as it is now conflicts in ${list}.${why} How should the two be combined? You can also rebase \`${wip}\` onto \`${parent}\` yourself and push it, or delete it to start over, before answering.`,
    ...said.questions,
  ];
}

function conflictReason(parent: string, files: readonly string[]): string {
  const list = files.length > 0 ? files.map((file) => `\`${file}\``).join(", ") : "(unknown files)";
  return `rebasing onto \`${parent}\` conflicts in ${list}. Resolve the conflict on the branch by hand, then comment \`/locus run\``;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
