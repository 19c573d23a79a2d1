/**
 * The lifecycle's steps that move only the labels: the app's (a writer's
 * request, an answer, a cancel, a sprint's activation, a PR merged or closed,
 * a dispatch refused, a run that died, a label someone without write access
 * added) and the stale sweep's (its claim, its restore, its requeue and
 * retry). Their effects are a label set or one label taken off, and for a
 * run that died a comment; the status comment
 * keeps what the Action, or the dispatch that follows, records. `step`
 * (lifecycle.ts) hands these events here.
 */
import { statusLabel } from "../labels/schema.ts";
import { isCompleted, sameLabelSet, statusOf } from "../status-machine/status-machine.ts";
import { orderOf, withOrder } from "../sprint/order.ts";
import { labelsOnly, move } from "./lifecycle-moves.ts";
import type { LabelEvent, Moved, Step, TaskState } from "./task-events.ts";

const QUEUED = statusLabel("queued");

/** The task with `labels`, written when the labels it was read with differ. */
function relabelled(task: TaskState, labels: readonly string[]): Moved {
  return {
    state: { ...task, labels: [...labels] },
    effects: sameLabelSet(labels, task.labels) ? [] : [{ kind: "labels", labels: [...labels] }],
  };
}

function queueRequested(task: TaskState, byLabel: boolean): Step {
  // The label just added is the trigger, not a prior state; by command, a queued issue is already queued.
  const before = byLabel ? task.labels.filter((label) => label !== QUEUED) : task.labels;
  const status = statusOf(before);
  const queued = move({ ...task, labels: before }, "queue", true);
  if (!("refused" in queued)) return relabelled(task, queued.labels);
  // A task the daily cost cap held back is still queued: `/locus run` (after raising the cap) dispatches it again.
  if (task.capRefused !== undefined && status === "queued") return relabelled(task, before);
  const why =
    status === "in-progress"
      ? "Locus is already working on it."
      : status === "queued"
        ? "It is already queued."
        : `It is \`${statusLabel(status ?? "queued")}\`; reopen the work by commenting \`/locus iterate\` on its pull request.`;
  return sameLabelSet(before, task.labels)
    ? { refused: why }
    : { refused: why, undo: relabelled(task, before) };
}

function sprintActivated(task: TaskState, order: number | undefined): Step {
  const status = statusOf(task.labels);
  if (isCompleted(status)) return { refused: `completed work (locus:${status}) is not queued again` };
  // An order, once given, is never moved: only a task with none gets one.
  const ordered =
    order !== undefined && orderOf(task.labels) === undefined ? withOrder(task.labels, order) : task.labels;
  if (status === "queued" || status === "in-progress") return relabelled(task, ordered);
  const queued = move({ ...task, labels: ordered }, "queue", false);
  return relabelled(task, "refused" in queued ? ordered : queued.labels);
}

function runEnded(task: TaskState, event: Extract<LabelEvent, { kind: "run-ended" }>): Step {
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

function retried(task: TaskState, budget: number): Step {
  // Only a failure Locus recorded is retried: a status someone else set carries no attempt.
  if (task.attempts === 0)
    return { refused: "no attempt by Locus is recorded, so its failure is not Locus's" };
  if (task.attempts > budget) return { refused: `retry budget exhausted after ${task.attempts} attempts` };
  if (statusOf(task.labels) !== "failed") return { refused: "only a failed task is retried" };
  return labelsOnly(task, "queue");
}

export function labelStep(task: TaskState, event: LabelEvent): Step {
  switch (event.kind) {
    case "queue-requested":
      return queueRequested(task, event.byLabel);
    case "sprint-activated":
      return sprintActivated(task, event.order);
    case "answered": {
      const next = labelsOnly(task, "answer");
      return "refused" in next ? next : { ...next, state: { ...next.state, requester: event.by } };
    }
    // The cancelled run records its own ending in the status comment (`cancelled`).
    case "cancel-requested":
      return labelsOnly(task, "cancel");
    case "dispatch-refused": {
      // The app has told the refusal in the status comment already; any status but queued or running stays.
      const next = move(task, "fail", false);
      if ("refused" in next) return next;
      return { state: { ...task, labels: next.labels }, effects: next.effects };
    }
    case "pr-merged":
      return labelsOnly(task, "merge");
    case "pr-closed-unmerged":
      return labelsOnly(task, "close-unmerged");
    case "run-ended":
      return runEnded(task, event);
    case "retried":
      return retried(task, event.budget);
    case "stale-requeued":
      return labelsOnly(task, "requeue-stale");
    case "sweep-claimed":
    case "label-refused": {
      const label = event.kind === "sweep-claimed" ? statusLabel(event.from) : event.label;
      // A claim needs the status to take; a refused label goes whatever the event's copy of the labels says.
      if (event.kind === "sweep-claimed" && !task.labels.includes(label))
        return { refused: `the issue does not carry ${label}` };
      const labels = task.labels.filter((name) => name !== label);
      return { state: { ...task, labels }, effects: [{ kind: "remove-label", label }] };
    }
    case "claim-restored":
      return relabelled(task, event.labels);
  }
}
