/**
 * A task's lifecycle in one table: `step(task, event)` answers the task's next
 * state and the writes that say so on GitHub (the label set, the status
 * comment, other comments), or why the event does not apply. Pure: the modes
 * and the app do the work (git, the agent, GitHub reads), describe what
 * happened as an event, and hand the effects to `applyEffects`
 * (apply-effects.ts), which sends one moment's writes together. The label
 * moves themselves are the status machine's (lib/status-machine/status-machine.ts); this
 * table adds what the status comment's hidden state must remember. `STEPS`
 * below names each event's step: those that move only the labels (the
 * app's, the stale sweep's) are in label-steps.ts, those that write only the
 * status comment (a dispatch's record, a read-only run) in record-steps.ts,
 * the pieces every step is made of in lifecycle-moves.ts. The modes ask it,
 * not the status machine, whether a task may start (`canStart`), a round
 * may start (`roundCanStart`) and a rebase resumes review (`resumesReview`).
 * docs/lifecycle.md walks through it.
 */
import { renderFailureComment } from "../render/failure-comment.ts";
import { utcDay } from "../cost/daily-budget.ts";
import { statusOf } from "../status-machine/status-machine.ts";
import { renderQuestionComment } from "../render/question-comment.ts";
import { untrustedLine } from "../render/markdown.ts";
import { safeToPublish } from "../render/safe-text.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { failureNextStep, phaseView } from "../status/task-phase.ts";
import { labelStep } from "./label-steps.ts";
import { readOnlyStep, recordStep } from "./record-steps.ts";
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

/** Each event's step, by kind: the lifecycle's whole table (docs/lifecycle.md lists it). */
type Steps = {
  readonly [K in TaskEvent["kind"]]: (task: TaskState, event: Extract<TaskEvent, { kind: K }>) => Step;
};

const STEPS: Steps = {
  // The app's and the stale sweep's: labels only (label-steps.ts).
  "queue-requested": labelStep,
  "sprint-activated": labelStep,
  answered: labelStep,
  "cancel-requested": labelStep,
  "dispatch-refused": labelStep,
  "pr-merged": labelStep,
  "pr-closed-unmerged": labelStep,
  "run-ended": labelStep,
  retried: labelStep,
  "stale-requeued": labelStep,
  "sweep-claimed": labelStep,
  "claim-restored": labelStep,
  "label-refused": labelStep,
  // The app's records: the status comment only (record-steps.ts).
  "dispatch-recorded": recordStep,
  "ci-fix-stopped": recordStep,
  // A read-only run (plan, review, ask): the status comment and its cost, no label (record-steps.ts).
  "read-only-started": readOnlyStep,
  "read-only-finished": readOnlyStep,
  // A coding task's run (run-task.ts and the files it calls).
  started(task, event) {
    const attempt = without(
      { ...task, attempts: task.attempts + 1 },
      "lastError",
      // The questions are answered by now (or a writer restarted the task without an answer).
      "waiting",
      "capRefused",
      // The last attempt's record; this attempt links its own when it delivers.
      "recordUrl",
    );
    const working = phaseView({ kind: "working" });
    const details = [
      ...(working.details ?? []),
      ...(event.model === undefined ? [] : [{ label: "Model", line: `\`${event.model}\`` }]),
      ...(event.setup === undefined ? [] : [{ label: "Setup", line: event.setup }]),
    ];
    return moved(
      withRun(attempt, event.runUrl, event.unsandboxed),
      "start",
      true,
      details.length === 0 ? working : { ...working, details },
    );
  },
  progress: (task, event) => ({ state: task, effects: [shown(task, event.view)] }),
  spent: (task, event) => ({ state: spend(task, event), effects: [] }),
  delivered: (task, event) =>
    moved(
      { ...spend(task, event), pr: event.pr, ...(event.recordUrl ? { recordUrl: event.recordUrl } : {}) },
      "deliver",
      false,
      phaseView({ kind: "pr-open", pr: event.pr }),
    ),
  failed(task, event) {
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
  },
  asked(task, event) {
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
  },
  "question-posted"(task, event) {
    const waiting = {
      questions: event.questions.map((question) => question.slice(0, MAX_QUESTION)),
      commentId: event.commentId,
      askedAt: event.askedAt,
    };
    const state = { ...task, waiting };
    return { state, effects: [shown(state, phaseView({ kind: "waiting", questions: event.questions }))] };
  },
  cancelled(task, event) {
    const now = statusOf(event.labels);
    if (now !== undefined) return { refused: `not cancelled: the issue is locus:${now}` };
    const state = { ...spend(task, event), labels: [...event.labels] };
    const headline = event.checkpoint
      ? `Cancelled. The work so far is saved on \`${event.checkpoint}\`; \`/locus run\` continues from it.`
      : "Cancelled. `/locus run` starts it again.";
    return { state, effects: [shown(state, { headline })] };
  },
  "over-budget"(task, event) {
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
  },
  "unpriced-refused": (task, event) =>
    moved(task, "refuse", false, { headline: `Not started: ${untrustedLine(event.reason)}` }, [
      {
        kind: "comment",
        role: "refusal",
        body: safeToPublish(`Locus did not start this task. ${untrustedLine(event.reason)}`),
      },
    ]),
  // A round on the task's PR (lib/pull-request/pull-request-round.ts): iterate, fix-ci, a rebase.
  "round-started": (task, event) =>
    moved(withRun(task, event.runUrl, event.unsandboxed), "iterate", true, { headline: event.headline }),
  "round-finished"(task, event) {
    const ended = spend(task, event);
    return moved(
      event.lastError === undefined ? ended : { ...ended, lastError: event.lastError.slice(0, MAX_ERROR) },
      event.outcome,
      false,
      { headline: event.headline },
    );
  },
  // Out of review only if it is in review: another run's work in progress stays as it is.
  "restack-started": (task, event) =>
    moved(withRun(task, event.runUrl, event.unsandboxed), "iterate", false, { headline: event.headline }),
  "restack-finished"(task, event) {
    const ended = spend(task, event);
    const view = { headline: event.headline };
    if (event.resume) return moved(ended, "deliver", false, view);
    return { state: ended, effects: [shown(ended, view)] };
  },
};

/** Whether a coding task may start on these labels (a task already queued or running is not started twice). */
export function canStart(labels: readonly string[]): boolean {
  return !("refused" in move(taskState(labels, EMPTY_STATE), "start", true));
}

/**
 * Whether a rebase that moved the task from labels `before` to `after` took it out of review, and so
 * puts it back when it ends: another run's work in progress stays in progress.
 */
export function resumesReview(before: readonly string[], after: readonly string[]): boolean {
  return statusOf(before) === "in-review" && statusOf(after) === "in-progress";
}

export function step(task: TaskState, event: TaskEvent): Step {
  // `STEPS` pairs each kind with the step of that kind's event; TypeScript cannot follow the pairing
  // through an index by a union, so the lookup is widened here, the one place it is.
  return (STEPS[event.kind] as (task: TaskState, event: TaskEvent) => Step)(task, event);
}
