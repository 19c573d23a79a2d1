/**
 * A task's lifecycle in one table: `step(task, event)` answers the task's next
 * state and the writes that say so on GitHub (the label set, the status
 * comment, other comments), or why the event does not apply. Pure: the modes
 * and the app do the work (git, the agent, GitHub reads), describe what
 * happened as an event, and hand the effects to `applyEffects`
 * (apply-effects.ts), which sends one moment's writes together. The label
 * moves themselves are the status machine's (lib/labels/status.ts); this
 * table adds what the status comment's hidden state must remember.
 * docs/lifecycle.md walks through it.
 */
import { renderFailureComment } from "../action/failure-comment.ts";
import { utcDay, withDaySpend } from "../action/daily-budget.ts";
import { statusOf, transition, type StatusEvent } from "../labels/status.ts";
import { renderQuestionComment } from "../render/question-comment.ts";
import type { StatusState, StatusView } from "../status/status-comment.ts";
import { failureNextStep, phaseView } from "../status/task-phase.ts";
import type { Effect, Spend, Step, TaskEvent, TaskState } from "./task-events.ts";

export type { Effect, Step, TaskEvent, TaskState } from "./task-events.ts";

/** Long errors and questions are cut: the status comment is a glance, and GitHub caps a comment's size. */
const MAX_ERROR = 500;
const MAX_QUESTION = 2_000;

/** The status comment's part of the task's state. */
function recordOf(task: TaskState): StatusState {
  const { labels: _labels, ...record } = task;
  return record;
}

export function taskState(labels: readonly string[], record: StatusState): TaskState {
  return { ...record, labels: [...labels] };
}

function spend(task: TaskState, { usd, at }: Spend): TaskState {
  return {
    ...withDaySpend(recordOf(task), at, usd),
    costUsd: (task.costUsd ?? 0) + usd,
    labels: task.labels,
  };
}

function without<K extends keyof StatusState>(task: TaskState, ...keys: K[]): TaskState {
  const next = { ...task };
  for (const key of keys) delete next[key];
  return next;
}

function withRun(task: TaskState, runUrl: string | undefined, unsandboxed: boolean): TaskState {
  const next = unsandboxed ? { ...task, unsandboxed: true } : without(task, "unsandboxed");
  return runUrl ? { ...next, runUrl } : next;
}

/**
 * The label move of `event` applied to `task`: the new labels and their write when they changed.
 * `strict`: a move the machine does not allow refuses the event; otherwise the labels stay as they are.
 */
function move(
  task: TaskState,
  event: StatusEvent,
  strict: boolean,
): { labels: readonly string[]; effects: Effect[] } | { refused: string } {
  const moved = transition(task.labels, event);
  if (!moved.ok) return strict ? { refused: moved.message } : { labels: task.labels, effects: [] };
  return { labels: moved.labels, effects: moved.changed ? [{ kind: "labels", labels: moved.labels }] : [] };
}

function shown(task: TaskState, view: StatusView): Effect {
  return { kind: "status", view, state: recordOf(task) };
}

/** The labels, then the status comment: one moment. */
function moved(
  task: TaskState,
  event: StatusEvent,
  strict: boolean,
  view: StatusView,
  extra: Effect[] = [],
): Step {
  const next = move(task, event, strict);
  if ("refused" in next) return next;
  const state = { ...task, labels: next.labels };
  return { state, effects: [...next.effects, shown(state, view), ...extra] };
}

export function step(task: TaskState, event: TaskEvent): Step {
  switch (event.kind) {
    case "started": {
      const attempt = without(
        { ...task, attempts: task.attempts + 1 },
        "lastError",
        // The questions are answered by now (or a writer restarted the task without an answer).
        "waiting",
        "capRefused",
      );
      return moved(
        withRun(attempt, event.runUrl, event.unsandboxed),
        "start",
        true,
        phaseView({ kind: "working" }),
      );
    }
    case "progress":
      return { state: task, effects: [shown(task, event.view)] };
    case "spent":
      return { state: spend(task, event), effects: [] };
    case "delivered":
      return moved(
        { ...spend(task, event), pr: event.pr },
        "deliver",
        false,
        phaseView({ kind: "pr-open", pr: event.pr }),
      );
    case "failed": {
      const failed = { ...spend(task, event), lastError: event.reason.slice(0, MAX_ERROR) };
      const checkpoint = event.checkpoint ? { checkpoint: event.checkpoint } : {};
      return moved(
        failed,
        "fail",
        false,
        phaseView({ kind: "failed", reason: event.reason, nextStep: failureNextStep(event.checkpoint) }),
        [
          {
            kind: "comment",
            role: "failure",
            body: renderFailureComment({ ...event.comment, reason: event.reason, ...checkpoint }),
          },
        ],
      );
    }
    case "asked": {
      const next = move(task, "ask", false);
      if ("refused" in next) return next;
      const body = renderQuestionComment({
        questions: event.questions,
        ...(event.requester ? { requester: event.requester } : {}),
        ...(event.checkpoint ? { checkpoint: event.checkpoint } : {}),
      });
      // The status comment waits for the question's id (`question-posted`), which only GitHub can give.
      return {
        state: { ...spend(task, event), labels: next.labels },
        effects: [...next.effects, { kind: "comment", role: "question", body }],
      };
    }
    case "question-posted": {
      const waiting = {
        questions: event.questions.map((question) => question.slice(0, MAX_QUESTION)),
        commentId: event.commentId,
        askedAt: event.askedAt,
      };
      const state = { ...task, waiting };
      return { state, effects: [shown(state, phaseView({ kind: "waiting", questions: event.questions }))] };
    }
    case "answered": {
      const next = move(task, "answer", true);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels, requester: event.by }, effects: next.effects };
    }
    case "cancel-requested": {
      // Only the labels: the cancelled run records its own ending in the status comment (`cancelled`).
      const next = move(task, "cancel", true);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "cancelled": {
      const now = statusOf(event.labels);
      if (now !== undefined) return { refused: `not cancelled: the issue is locus:${now}` };
      const state = { ...spend(task, event), labels: [...event.labels] };
      const headline = event.checkpoint
        ? `Cancelled. The work so far is saved on \`${event.checkpoint}\`; \`/locus run\` continues from it.`
        : "Cancelled. `/locus run` starts it again.";
      return { state, effects: [shown(state, { headline })] };
    }
    case "over-budget": {
      const day = utcDay(event.at);
      const said = task.capRefused === day;
      const next =
        "It stays queued: the stale sweep starts it after 00:00 UTC, or comment `/locus run` once the cap is raised.";
      const state = { ...task, capRefused: day };
      const comment: Effect[] = said
        ? []
        : [
            {
              kind: "comment",
              role: "refusal",
              body: `Locus did not start this task: ${event.reason}. ${next}`,
            },
          ];
      return {
        state,
        effects: [shown(state, { headline: `Not started: ${event.reason}. ${next}` }), ...comment],
      };
    }
    case "unpriced-refused":
      return moved(task, "refuse", false, { headline: `Not started: ${event.reason}` }, [
        { kind: "comment", role: "refusal", body: `Locus did not start this task. ${event.reason}` },
      ]);
    case "dispatch-refused": {
      // Only the labels: the app has told the refusal in the status comment already.
      const next = move(task, "fail", false);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "pr-merged": {
      const next = move(task, "merge", true);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "pr-closed-unmerged": {
      const next = move(task, "close-unmerged", true);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "run-ended": {
      const next = move(task, "fail", true);
      if ("refused" in next) return next;
      const body =
        `Locus's [workflow run](${event.runUrl}) ended with \`${event.conclusion}\` before finishing this task. ` +
        `Its saved work, if any, is on \`${event.wip}\`. Comment \`/locus run\` to try again.`;
      return {
        state: { ...task, labels: next.labels },
        effects: [...next.effects, { kind: "comment", role: "failure", body }],
      };
    }
    case "retried": {
      // Only a failure Locus recorded is retried: a status someone else set carries no attempt.
      if (task.attempts === 0)
        return { refused: "no attempt by Locus is recorded, so its failure is not Locus's" };
      if (task.attempts > event.budget)
        return { refused: `retry budget exhausted after ${task.attempts} attempts` };
      if (statusOf(task.labels) !== "failed") return { refused: "only a failed task is retried" };
      const next = move(task, "queue", true);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "stale-requeued": {
      const next = move(task, "requeue-stale", true);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "round-started":
      return moved(withRun(task, event.runUrl, event.unsandboxed), "iterate", true, {
        headline: event.headline,
      });
    case "round-finished": {
      const ended = spend(task, event);
      return moved(
        event.lastError === undefined ? ended : { ...ended, lastError: event.lastError.slice(0, MAX_ERROR) },
        event.outcome,
        false,
        { headline: event.headline },
      );
    }
  }
}
