/**
 * The status machine (docs/contracts.md "Status machine"). A transition computes an issue's whole new
 * label set, so applying it is one "set labels" call and never remove-then-add.
 */
import { MANAGED_LABEL, STATUSES, STATUS_PREFIX, statusLabel, type Status } from "./schema.ts";

export type StatusEvent =
  | "queue" // a user or Locus asks for work
  | "requeue-stale" // in-progress with no live run: the stale sweep puts it back
  | "start" // a run picked it up (sprint runs also retry failed and resume stale tasks)
  | "deliver" // a PR was opened, or an iterate round pushed
  | "iterate" // review feedback, a CI failure (fix-ci) or a rebase is being addressed
  | "merge" // its PR merged: done, whatever came before
  | "fail"; // error, crash, timeout, cancellation

type From = Status | "none";

const ALLOWED: Readonly<Record<StatusEvent, { from: readonly From[]; to: Status }>> = {
  queue: { from: ["none", "failed"], to: "queued" },
  "requeue-stale": { from: ["in-progress"], to: "queued" },
  start: { from: ["none", "queued", "failed", "in-progress"], to: "in-progress" },
  deliver: { from: ["in-progress"], to: "in-review" },
  iterate: { from: ["in-review"], to: "in-progress" },
  merge: { from: ["none", "queued", "in-progress", "in-review", "failed"], to: "done" },
  fail: { from: ["queued", "in-progress"], to: "failed" },
};

/** When an issue wrongly carries several statuses, the most advanced one counts. */
const PRECEDENCE: readonly Status[] = ["done", "in-review", "in-progress", "failed", "queued"];

export function isStatus(value: string): value is Status {
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
  | { ok: true; from: Status | undefined; to: Status; labels: string[]; changed: boolean }
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
  const to = ALLOWED[event].to;
  const next = withStatus(labels, to);
  return { ok: true, from, to, labels: next, changed: !sameLabelSet(labels, next) };
}

/** The label set with exactly one status and the managed marker; every other label kept in place. */
export function withStatus(labels: readonly string[], status: Status): string[] {
  const kept = labels.filter((label) => !isStatusLabel(label));
  const next = [...kept, statusLabel(status)];
  return next.includes(MANAGED_LABEL) ? next : [...next, MANAGED_LABEL];
}

export function sameLabelSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((label) => right.has(label));
}
