/**
 * The status machine (docs/contracts.md "Status machine"). A transition computes an issue's whole new
 * label set, so applying it is one "set labels" call and never remove-then-add.
 */
import { MANAGED_LABEL, STATUSES, STATUS_PREFIX, statusLabel, type Status } from "../labels/schema.ts";

export type StatusEvent =
  | "queue" // a user or Locus asks for work (a writer may restart a waiting task without answering)
  | "requeue-stale" // in-progress with no live run: the stale sweep puts it back
  | "start" // a run picked it up (sprint runs also retry failed and resume stale tasks)
  | "ask" // the agent asked a question: the run ended, the work is saved, a person must answer
  | "answer" // a writer answered the question: the task runs again from its saved work
  | "deliver" // a PR was opened, or an iterate round pushed
  | "iterate" // review feedback, a CI failure (fix-ci) or a rebase is being addressed
  | "merge" // its PR merged: done, whatever came before
  | "close-unmerged" // its PR was closed without merging: no longer in review, and not completed
  | "cancel" // `/locus cancel`: no status, so nothing retries it on its own
  | "refuse" // a run would not start it for a setting a person must fix (an unpriced model): no status either
  | "fail"; // error, crash, timeout

type From = Status | "none";

const ALLOWED: Readonly<Record<StatusEvent, { from: readonly From[]; to: From }>> = {
  queue: { from: ["none", "failed", "waiting"], to: "queued" },
  "requeue-stale": { from: ["in-progress"], to: "queued" },
  start: { from: ["none", "queued", "failed", "in-progress"], to: "in-progress" },
  ask: { from: ["in-progress"], to: "waiting" },
  answer: { from: ["waiting"], to: "queued" },
  deliver: { from: ["in-progress"], to: "in-review" },
  iterate: { from: ["in-review"], to: "in-progress" },
  merge: { from: ["none", "queued", "in-progress", "waiting", "in-review", "failed"], to: "done" },
  "close-unmerged": { from: ["in-review"], to: "none" },
  cancel: { from: ["queued", "in-progress", "waiting", "failed"], to: "none" },
  refuse: { from: ["queued", "in-progress", "failed"], to: "none" },
  fail: { from: ["queued", "in-progress"], to: "failed" },
};

/** When an issue wrongly carries several statuses, the most advanced one counts. */
const PRECEDENCE: readonly Status[] = ["done", "in-review", "in-progress", "waiting", "failed", "queued"];

function isStatus(value: string): value is Status {
  return (STATUSES as readonly string[]).includes(value);
}

export function isStatusLabel(label: string): boolean {
  return label.startsWith(STATUS_PREFIX) && isStatus(label.slice(STATUS_PREFIX.length));
}

export function statusOf(labels: readonly string[]): Status | undefined {
  return PRECEDENCE.find((status) => labels.includes(statusLabel(status)));
}

/** Completed work is frozen for ordering and skipped by sprint runs. */
export function isCompleted(status: Status | undefined): boolean {
  return status === "in-review" || status === "done";
}

export function canTransition(from: Status | undefined, event: StatusEvent): boolean {
  return ALLOWED[event].from.includes(from ?? "none");
}

export type TransitionResult =
  /** `to` is undefined when the event clears the status (cancel, a PR closed unmerged). */
  | { ok: true; from: Status | undefined; to: Status | undefined; labels: string[]; changed: boolean }
  | { ok: false; from: Status | undefined; message: string };

export function transition(labels: readonly string[], event: StatusEvent): TransitionResult {
  const from = statusOf(labels);
  if (!canTransition(from, event)) {
    return {
      ok: false,
      from,
      message: `Cannot ${event} an issue that is ${from ? statusLabel(from) : "not queued"}.`,
    };
  }
  const target = ALLOWED[event].to;
  const to = target === "none" ? undefined : target;
  const next = to === undefined ? withoutStatus(labels) : withStatus(labels, to);
  return { ok: true, from, to, labels: next, changed: !sameLabelSet(labels, next) };
}

/** The label set with exactly one status and the managed marker; every other label kept in place. */
export function withStatus(labels: readonly string[], status: Status): string[] {
  const kept = labels.filter((label) => !isStatusLabel(label));
  const next = [...kept, statusLabel(status)];
  return next.includes(MANAGED_LABEL) ? next : [...next, MANAGED_LABEL];
}

/** The label set with no status and the managed marker (Locus touched it); every other label kept in place. */
function withoutStatus(labels: readonly string[]): string[] {
  const kept = labels.filter((label) => !isStatusLabel(label));
  return kept.includes(MANAGED_LABEL) ? kept : [...kept, MANAGED_LABEL];
}

export function sameLabelSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((label) => right.has(label));
}
