/**
 * A task's lifecycle in one table: `step(task, event)` answers the task's next
 * state and the writes that say so on GitHub (the label set, the status
 * comment, other comments), or why the event does not apply. Pure: the modes
 * and the app do the work (git, the agent, GitHub reads), describe what
 * happened as an event, and hand the effects to `applyEffects`
 * (apply-effects.ts), which sends one moment's writes together. The label
 * moves themselves are the status machine's (lib/labels/status.ts); this
 * table adds what the status comment's hidden state must remember. The
 * steps that move only the labels (the app's, the stale sweep's) are in
 * label-steps.ts, the pieces every step is made of in lifecycle-moves.ts.
 * docs/lifecycle.md walks through it.
 */
import { renderFailureComment } from "../action/failure-comment.ts";
import { utcDay } from "../action/daily-budget.ts";
import { statusOf } from "../labels/status.ts";
import { renderQuestionComment } from "../render/question-comment.ts";
import { untrustedLine } from "../render/markdown.ts";
import { safeToPublish } from "../render/safe-text.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { failureNextStep, phaseView } from "../status/task-phase.ts";
import { labelStep } from "./label-steps.ts";
import { move, moved, shown, spend, taskState, without, withRun } from "./lifecycle-moves.ts";
import type { Effect, Step, TaskEvent, TaskState } from "./task-events.ts";

export type { Effect, LabelEvent, Moved, Step, TaskEvent, TaskState } from "./task-events.ts";
export { taskState } from "./lifecycle-moves.ts";

/** Long errors and questions are cut: the status comment is a glance, and GitHub caps a comment's size. */
const MAX_ERROR = 500;
const MAX_QUESTION = 2_000;

/** Whether a round of work on the task's PR (iterate, fix-ci) may start: the task is in review. */
export function roundCanStart(labels: readonly string[]): boolean {
  return !("refused" in move(taskState(labels, EMPTY_STATE), "iterate", true));
}

export function step(task: TaskState, event: TaskEvent): Step {
  switch (event.kind) {
    case "queue-requested":
    case "sprint-activated":
    case "answered":
    case "cancel-requested":
    case "dispatch-refused":
    case "pr-merged":
    case "pr-closed-unmerged":
    case "run-ended":
    case "retried":
    case "stale-requeued":
      return labelStep(task, event);
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
              body: safeToPublish(`Locus did not start this task: ${untrustedLine(event.reason)}. ${next}`),
            },
          ];
      return {
        state,
        effects: [
          shown(state, { headline: `Not started: ${untrustedLine(event.reason)}. ${next}` }),
          ...comment,
        ],
      };
    }
    case "unpriced-refused":
      return moved(task, "refuse", false, { headline: `Not started: ${untrustedLine(event.reason)}` }, [
        {
          kind: "comment",
          role: "refusal",
          body: safeToPublish(`Locus did not start this task. ${untrustedLine(event.reason)}`),
        },
      ]);
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
    case "restack-started":
      // Out of review only if it is in review: another run's work in progress stays as it is.
      return moved(withRun(task, event.runUrl, event.unsandboxed), "iterate", false, {
        headline: event.headline,
      });
    case "restack-finished": {
      const ended = spend(task, event);
      const view = { headline: event.headline };
      if (event.resume) return moved(ended, "deliver", false, view);
      return { state: ended, effects: [shown(ended, view)] };
    }
  }
}
