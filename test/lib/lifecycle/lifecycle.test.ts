import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STATUSES, STATUS_PREFIX, statusLabel, type Status } from "../../../lib/labels/schema.ts";
import { isCompleted, statusOf } from "../../../lib/status-machine/status-machine.ts";
import { isOrderLabel } from "../../../lib/sprint/order.ts";
import { EMPTY_STATE } from "../../../lib/status/status-comment.ts";
import {
  canStart,
  resumesReview,
  roundCanStart,
  step,
  taskState,
  type Effect,
  type TaskEvent,
  type TaskState,
} from "../../../lib/lifecycle/lifecycle.ts";

const AT = new Date("2026-11-24T10:00:00Z");

function task(
  status: Status | undefined,
  record: Partial<TaskState> = {},
  /** null: no order label. */
  order: number | null = 3,
): TaskState {
  const labels = [
    "bug",
    ...(order === null ? [] : [`order:${order}`]),
    ...(status ? [statusLabel(status)] : []),
  ];
  return { ...taskState(labels, EMPTY_STATE), ...record };
}

function applied(task: TaskState, event: TaskEvent): { state: TaskState; effects: readonly Effect[] } {
  const next = step(task, event);
  if ("refused" in next) throw new Error(next.refused);
  return next;
}

const FAILURE_FACTS = { logTail: "npm test\n1 failing" };

const statusArb = fc.constantFrom<Status | undefined>(undefined, ...STATUSES);
const spendArb = fc.record({
  usd: fc.double({ min: 0, max: 5, noNaN: true }),
  at: fc.date({
    min: new Date("2026-01-01T00:00:00Z"),
    max: new Date("2026-12-31T00:00:00Z"),
    noInvalidDate: true,
  }),
});
const eventArb: fc.Arbitrary<TaskEvent> = fc.oneof(
  fc.record({ kind: fc.constant("started" as const), unsandboxed: fc.boolean() }),
  fc.constant<TaskEvent>({ kind: "progress", view: { headline: "Working." } }),
  spendArb.map((s): TaskEvent => ({ kind: "spent", ...s })),
  spendArb.map((s): TaskEvent => ({ kind: "delivered", pr: 7, ...s })),
  spendArb.map((s): TaskEvent => ({ kind: "failed", reason: "tests fail", comment: FAILURE_FACTS, ...s })),
  spendArb.map((s): TaskEvent => ({ kind: "asked", questions: ["Which API?"], ...s })),
  fc.constant<TaskEvent>({
    kind: "question-posted",
    questions: ["Which API?"],
    commentId: 9,
    askedAt: AT.toISOString(),
  }),
  fc.constant<TaskEvent>({ kind: "answered", by: "alice" }),
  fc.constant<TaskEvent>({ kind: "unpriced-refused", reason: "no price" }),
  fc.constant<TaskEvent>({ kind: "over-budget", reason: "cap reached", at: AT }),
  fc.constant<TaskEvent>({ kind: "pr-closed-unmerged" }),
  fc.constant<TaskEvent>({ kind: "cancel-requested" }),
  fc.constant<TaskEvent>({ kind: "pr-merged" }),
  fc.constant<TaskEvent>({ kind: "dispatch-refused" }),
  fc.nat(3).map((budget): TaskEvent => ({ kind: "retried", budget })),
  fc.constant<TaskEvent>({ kind: "stale-requeued" }),
  fc.constant<TaskEvent>({
    kind: "run-ended",
    runUrl: "https://run/9",
    conclusion: "failure",
    wip: "locus/wip/issue-3",
  }),
  fc.constant<TaskEvent>({ kind: "round-started", headline: "Iterating.", unsandboxed: false }),
  fc
    .tuple(fc.constantFrom("deliver" as const, "fail" as const), spendArb)
    .map(([outcome, s]): TaskEvent => ({ kind: "round-finished", outcome, headline: "Round over.", ...s })),
  fc.boolean().map((byLabel): TaskEvent => ({ kind: "queue-requested", byLabel })),
  fc
    .option(fc.integer({ min: 1, max: 9 }), { nil: undefined })
    .map((order): TaskEvent => ({ kind: "sprint-activated", order })),
  fc
    .boolean()
    .map((unsandboxed): TaskEvent => ({ kind: "restack-started", headline: "Rebasing.", unsandboxed })),
  fc
    .tuple(fc.boolean(), spendArb)
    .map(([resume, s]): TaskEvent => ({ kind: "restack-finished", resume, headline: "Rebased.", ...s })),
  fc.constantFrom(...STATUSES).map((from): TaskEvent => ({ kind: "sweep-claimed", from })),
  fc
    .constantFrom(...STATUSES)
    .map((status): TaskEvent => ({ kind: "label-refused", label: statusLabel(status) })),
  fc.option(fc.constantFrom("https://run/10", null), { nil: undefined }).map((runUrl): TaskEvent => ({
    kind: "dispatch-recorded",
    headline: "Queued.",
    deliveries: ["d-1"],
    runUrl,
  })),
  fc.constant<TaskEvent>({
    kind: "ci-fix-stopped",
    headline: "CI still fails.",
    ci: { heads: ["abc"], streak: 3, stopped: true },
  }),
  fc
    .boolean()
    .map((unsandboxed): TaskEvent => ({ kind: "read-only-started", headline: "Planning.", unsandboxed })),
  fc.tuple(fc.boolean(), spendArb).map(([taskCost, s]): TaskEvent => ({
    kind: "read-only-finished",
    headline: "Planned.",
    taskCost,
    ...s,
  })),
);
/** Events a person asks for: they may give a task a status whatever came before (cancel included). */
const PERSONS = ["started", "pr-merged", "queue-requested", "sprint-activated"];
/** A task somewhere in the machine: at most one status, a few other labels, any recorded attempts. */
const taskArb = fc
  .record({
    status: statusArb,
    attempts: fc.nat(4),
    costUsd: fc.option(fc.double({ min: 0, max: 9, noNaN: true }), { nil: undefined }),
    capRefused: fc.option(fc.constant("2026-11-23"), { nil: undefined }),
    order: fc.option(fc.constant(3), { nil: null }),
  })
  .map(({ status, attempts, costUsd, capRefused, order }) =>
    task(
      status,
      {
        attempts,
        ...(costUsd === undefined ? {} : { costUsd }),
        ...(capRefused === undefined ? {} : { capRefused }),
      },
      order,
    ),
  );

/** The task as GitHub shows it when `event` arrives: a request by label comes with its `locus:queued`. */
function arrived(task: TaskState, event: TaskEvent): TaskState {
  const queued = statusLabel("queued");
  if (event.kind !== "queue-requested" || !event.byLabel || task.labels.includes(queued)) return task;
  return { ...task, labels: [...task.labels, queued] };
}

/** The step of `event` on the task as it arrives: what it moved to, or what a refusal still wrote. */
function stepped(
  task: TaskState,
  event: TaskEvent,
): { state: TaskState; effects: readonly Effect[] } | undefined {
  const next = step(arrived(task, event), event);
  return "refused" in next ? next.undo : next;
}

/** Runs the events in order; refused ones change nothing but what their undo writes. */
function run(start: TaskState, events: readonly TaskEvent[]): { states: TaskState[]; effects: Effect[][] } {
  const states = [start];
  const effects: Effect[][] = [];
  let current = start;
  for (const event of events) {
    const next = stepped(current, event);
    if (!next) continue;
    current = next.state;
    states.push(current);
    effects.push([...next.effects]);
  }
  return { states, effects };
}

const statusLabels = (labels: readonly string[]) => labels.filter((label) => label.startsWith(STATUS_PREFIX));

describe("the task lifecycle's invariants", () => {
  it("never puts a status outside the machine: one status at most, every label write a known one", () => {
    fc.assert(
      fc.property(taskArb, fc.array(eventArb, { maxLength: 12 }), (start, events) => {
        const { states, effects } = run(start, events);
        for (const state of states) {
          const statuses = statusLabels(state.labels);
          expect(statuses.length).toBeLessThanOrEqual(1);
          for (const label of statuses) expect(STATUSES.map(statusLabel)).toContain(label);
        }
        for (const list of effects) {
          expect(list.filter((effect) => effect.kind === "labels").length).toBeLessThanOrEqual(1);
          expect(list.filter((effect) => effect.kind === "status").length).toBeLessThanOrEqual(1);
          for (const effect of list)
            if (effect.kind === "labels") expect(statusLabels(effect.labels).length).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("never lowers the attempt count or the cost, and only a start counts an attempt", () => {
    fc.assert(
      fc.property(taskArb, eventArb, (start, event) => {
        const next = stepped(start, event);
        if (!next) return;
        expect(next.state.attempts).toBe(start.attempts + (event.kind === "started" ? 1 : 0));
        expect(next.state.costUsd ?? 0).toBeGreaterThanOrEqual(start.costUsd ?? 0);
      }),
    );
  });

  it("never lets the stale rules (or anything but a person's request or merge) give a cancelled task a status again", () => {
    const noRun = eventArb.filter((event) => !PERSONS.includes(event.kind));
    fc.assert(
      fc.property(taskArb, fc.array(noRun, { maxLength: 12 }), (start, events) => {
        const cleared = start.labels.filter((label) => !label.startsWith(STATUS_PREFIX));
        const cancelled = step(start, { kind: "cancelled", labels: cleared, usd: 0, at: AT });
        if ("refused" in cancelled) throw new Error(cancelled.refused);
        expect(step(cancelled.state, { kind: "retried", budget: 3 })).toHaveProperty("refused");
        expect(step(cancelled.state, { kind: "stale-requeued" })).toHaveProperty("refused");
        const { states } = run(cancelled.state, events);
        for (const state of states) expect(statusOf(state.labels)).toBeUndefined();
      }),
    );
  });

  it("never changes an existing order; only sprint activation gives an unordered task one", () => {
    const orders = (labels: readonly string[]) => labels.filter(isOrderLabel);
    const others = (labels: readonly string[]) =>
      labels.filter(
        (label) => !label.startsWith(STATUS_PREFIX) && label !== "agent:managed" && !isOrderLabel(label),
      );
    fc.assert(
      fc.property(taskArb, eventArb, (start, event) => {
        const next = stepped(start, event);
        if (!next) return;
        if (orders(start.labels).length > 0 || event.kind !== "sprint-activated")
          expect(orders(next.state.labels)).toEqual(orders(start.labels));
        expect(others(next.state.labels)).toEqual(others(start.labels));
      }),
    );
  });

  it("never starts, retries or queues again a completed task", () => {
    const again = ["started", "retried", "stale-requeued", "queue-requested", "sprint-activated"];
    fc.assert(
      fc.property(taskArb, eventArb, (start, event) => {
        if (isCompleted(statusOf(start.labels)) && again.includes(event.kind))
          expect(step(arrived(start, event), event)).toHaveProperty("refused");
      }),
    );
  });

  it("takes off the label of a request by label it refuses, and nothing else", () => {
    fc.assert(
      fc.property(taskArb, (start) => {
        const next = step(arrived(start, { kind: "queue-requested", byLabel: true }), {
          kind: "queue-requested",
          byLabel: true,
        });
        if (!("refused" in next)) return;
        expect(next.undo?.state.labels).toEqual(start.labels);
        expect(next.undo?.effects).toEqual([{ kind: "labels", labels: start.labels }]);
      }),
    );
  });
});

describe("the task lifecycle's steps", () => {
  it("starts a queued task: in-progress, one attempt more, the last error, question and cap refusal gone", () => {
    const queued = task("queued", {
      attempts: 1,
      lastError: "tests failed",
      capRefused: "2026-11-23",
      waiting: { questions: ["?"], commentId: 3, askedAt: AT.toISOString() },
    });
    const { state, effects } = applied(queued, {
      kind: "started",
      runUrl: "https://run/1",
      unsandboxed: false,
    });
    expect(state).toMatchObject({ attempts: 2, runUrl: "https://run/1" });
    expect(state).not.toHaveProperty("lastError");
    expect(state).not.toHaveProperty("waiting");
    expect(state).not.toHaveProperty("capRefused");
    expect(effects.map((effect) => effect.kind)).toEqual(["labels", "status"]);
    expect(effects[0]).toEqual({
      kind: "labels",
      labels: ["bug", "order:3", "locus:in-progress", "agent:managed"],
    });
  });

  it("says in the status what setup runs before the agent", () => {
    const { effects } = applied(task("queued"), {
      kind: "started",
      unsandboxed: false,
      setup: "`npm ci` (the default for the lockfile found)",
    });
    const status = effects.find((effect) => effect.kind === "status");
    expect(status).toMatchObject({
      view: { details: [{ label: "Setup", line: "`npm ci` (the default for the lockfile found)" }] },
    });
  });

  it("refuses to start work that is in review or done", () => {
    expect(step(task("in-review"), { kind: "started", unsandboxed: false })).toEqual({
      refused: "Cannot start an issue that is locus:in-review.",
    });
  });

  it("fails a task: labels, the status with the reason and what to do, then the failure comment; the cost adds up", () => {
    const { state, effects } = applied(task("in-progress", { costUsd: 0.5, attempts: 1 }), {
      kind: "failed",
      reason: "tests fail",
      checkpoint: "locus/wip/issue-3",
      comment: FAILURE_FACTS,
      usd: 0.25,
      at: AT,
    });
    expect(state).toMatchObject({
      costUsd: 0.75,
      lastError: "tests fail",
      daySpend: { day: "2026-11-24", usd: 0.25 },
    });
    expect(effects.map((effect) => effect.kind)).toEqual(["labels", "status", "comment"]);
    const [, status, comment] = effects;
    expect(status).toMatchObject({ view: { headline: "Failed: tests fail" } });
    expect(comment).toMatchObject({ role: "failure" });
    expect(comment?.kind === "comment" && comment.body).toContain("locus/wip/issue-3");
  });

  it("asks: labels and the question first, the status comment once the question's id is known", () => {
    const asked = applied(task("in-progress"), {
      kind: "asked",
      questions: ["Which API?"],
      requester: "alice",
      usd: 0.1,
      at: AT,
    });
    expect(statusOf(asked.state.labels)).toBe("waiting");
    expect(asked.effects.map((effect) => effect.kind)).toEqual(["labels", "comment"]);
    expect(asked.effects[1]?.kind === "comment" && asked.effects[1].body).toContain("@alice");
    const posted = applied(asked.state, {
      kind: "question-posted",
      questions: ["Which API?"],
      commentId: 42,
      askedAt: AT.toISOString(),
    });
    expect(posted.state.waiting).toEqual({
      questions: ["Which API?"],
      commentId: 42,
      askedAt: AT.toISOString(),
    });
    expect(posted.effects.map((effect) => effect.kind)).toEqual(["status"]);
  });

  it("says a cap refusal once a UTC day, without touching the labels or the attempts", () => {
    const first = applied(task("queued", { attempts: 2 }), {
      kind: "over-budget",
      reason: "cap reached",
      at: AT,
    });
    expect(first.state).toMatchObject({ capRefused: "2026-11-24", attempts: 2 });
    expect(first.effects.map((effect) => effect.kind)).toEqual(["status", "comment"]);
    const again = applied(first.state, { kind: "over-budget", reason: "cap reached", at: AT });
    expect(again.effects.map((effect) => effect.kind)).toEqual(["status"]);
  });

  it("clears the status on a person's cancel, and refuses it where nothing can be cancelled", () => {
    const { state, effects } = applied(task("waiting"), { kind: "cancel-requested" });
    expect(state.labels).toEqual(["bug", "order:3", "agent:managed"]);
    expect(effects).toEqual([{ kind: "labels", labels: ["bug", "order:3", "agent:managed"] }]);
    expect(step(task("in-review"), { kind: "cancel-requested" })).toHaveProperty("refused");
    expect(step(task(undefined), { kind: "cancel-requested" })).toHaveProperty("refused");
  });

  it("fails a queued task whose dispatch the app refused, and leaves any other status alone", () => {
    const { state, effects } = applied(task("queued"), { kind: "dispatch-refused" });
    expect(statusOf(state.labels)).toBe("failed");
    expect(effects).toEqual([{ kind: "labels", labels: state.labels }]);
    expect(applied(task("in-review"), { kind: "dispatch-refused" })).toEqual({
      state: task("in-review"),
      effects: [],
    });
  });

  it("marks a task done when its PR merges, and only once", () => {
    const { state, effects } = applied(task("in-review"), { kind: "pr-merged" });
    expect(statusOf(state.labels)).toBe("done");
    expect(effects).toEqual([{ kind: "labels", labels: state.labels }]);
    expect(step(state, { kind: "pr-merged" })).toHaveProperty("refused");
  });

  it("leaves a run's cancel as it found it: no failure, the status cleared", () => {
    expect(
      step(task("in-progress"), { kind: "cancelled", labels: ["locus:in-progress"], usd: 0, at: AT }),
    ).toEqual({
      refused: "not cancelled: the issue is locus:in-progress",
    });
    const { state, effects } = applied(task("in-progress"), {
      kind: "cancelled",
      labels: ["bug"],
      usd: 1,
      at: AT,
    });
    expect(state.labels).toEqual(["bug"]);
    expect(effects).toEqual([
      {
        kind: "status",
        view: { headline: "Cancelled. `/locus run` starts it again." },
        state: { ...EMPTY_STATE, costUsd: 1, daySpend: { day: "2026-11-24", usd: 1 } },
      },
    ]);
  });

  it("fails a task whose run died before the Action said how it ended, and only then", () => {
    const died = {
      kind: "run-ended",
      runUrl: "https://run/9",
      conclusion: "timed_out",
      wip: "locus/wip/issue-3",
    } as const;
    const { state, effects } = applied(task("in-progress"), died);
    expect(statusOf(state.labels)).toBe("failed");
    expect(effects.map((effect) => effect.kind)).toEqual(["labels", "comment"]);
    expect(effects[1]?.kind === "comment" && effects[1].body).toContain("ended with `timed_out`");
    for (const ended of ["failed", "in-review", undefined] as const)
      expect(step(task(ended), died)).toHaveProperty("refused");
  });

  it("retries only a failure Locus recorded, within the budget", () => {
    expect(step(task("failed"), { kind: "retried", budget: 3 })).toHaveProperty("refused");
    expect(step(task("failed", { attempts: 4 }), { kind: "retried", budget: 3 })).toHaveProperty("refused");
    expect(
      statusOf(applied(task("failed", { attempts: 2 }), { kind: "retried", budget: 3 }).state.labels),
    ).toBe("queued");
  });

  it("ends a round back in review with its cost added, or failed with its error", () => {
    const working = applied(task("in-review", { costUsd: 1 }), {
      kind: "round-started",
      headline: "Iterating.",
      unsandboxed: true,
    });
    expect(statusOf(working.state.labels)).toBe("in-progress");
    expect(working.state.unsandboxed).toBe(true);
    const back = applied(working.state, {
      kind: "round-finished",
      outcome: "deliver",
      headline: "Pushed.",
      usd: 0.5,
      at: AT,
    });
    expect(statusOf(back.state.labels)).toBe("in-review");
    expect(back.state.costUsd).toBe(1.5);
    const failed = applied(working.state, {
      kind: "round-finished",
      outcome: "fail",
      headline: "Failed.",
      lastError: "push rejected",
      usd: 0,
      at: AT,
    });
    expect(failed.state.lastError).toBe("push rejected");
    expect(statusOf(failed.state.labels)).toBe("failed");
  });

  it("queues a writer's request: from no status, a failure or a question; the labels written only when GitHub's differ", () => {
    const labelled = task(undefined, {}, null);
    const byLabel = applied(
      { ...labelled, labels: ["bug", "locus:queued"] },
      {
        kind: "queue-requested",
        byLabel: true,
      },
    );
    expect(byLabel.state.labels).toEqual(["bug", "locus:queued", "agent:managed"]);
    expect(byLabel.effects).toEqual([{ kind: "labels", labels: byLabel.state.labels }]);
    const already = applied(byLabel.state, { kind: "queue-requested", byLabel: true });
    expect(already.effects).toEqual([]);
    for (const from of ["failed", "waiting"] as const)
      expect(statusOf(applied(task(from), { kind: "queue-requested", byLabel: false }).state.labels)).toBe(
        "queued",
      );
  });

  it("refuses a request for work under way or completed with the reason the writer is told, undoing a refused label", () => {
    const working = { ...task("in-progress"), labels: ["bug", "locus:in-progress", "locus:queued"] };
    expect(step(working, { kind: "queue-requested", byLabel: true })).toEqual({
      refused: "Locus is already working on it.",
      undo: {
        state: { ...working, labels: ["bug", "locus:in-progress"] },
        effects: [{ kind: "labels", labels: ["bug", "locus:in-progress"] }],
      },
    });
    expect(step(task("queued"), { kind: "queue-requested", byLabel: false })).toEqual({
      refused: "It is already queued.",
    });
    expect(step(task("in-review"), { kind: "queue-requested", byLabel: false })).toEqual({
      refused: "It is `locus:in-review`; reopen the work by commenting `/locus iterate` on its pull request.",
    });
  });

  it("lets a request through for a task the daily cost cap holds, its labels as they are", () => {
    const held = task("queued", { capRefused: "2026-11-23" });
    expect(step(held, { kind: "queue-requested", byLabel: false })).toEqual({ state: held, effects: [] });
  });

  it("activates a sprint's task: an order only where there is none, queued unless queued or running", () => {
    const fresh = applied(task(undefined, {}, null), { kind: "sprint-activated", order: 5 });
    expect(fresh.state.labels).toEqual(["bug", "order:5", "locus:queued", "agent:managed"]);
    expect(fresh.effects).toEqual([{ kind: "labels", labels: fresh.state.labels }]);
    const ordered = applied(task("failed"), { kind: "sprint-activated", order: 5 });
    expect(ordered.state.labels).toEqual(["bug", "order:3", "locus:queued", "agent:managed"]);
    const running = applied(task("in-progress", {}, null), { kind: "sprint-activated", order: 6 });
    expect(running.state.labels).toEqual(["bug", "locus:in-progress", "order:6"]);
    expect(applied(task("queued"), { kind: "sprint-activated", order: 7 }).effects).toEqual([]);
    for (const completed of ["in-review", "done"] as const)
      expect(step(task(completed), { kind: "sprint-activated", order: 8 })).toHaveProperty("refused");
  });

  it("takes a rebased task out of review and back, leaving another run's work in progress as it is", () => {
    const started = applied(task("in-review", { costUsd: 1 }), {
      kind: "restack-started",
      headline: "Rebasing.",
      runUrl: "https://run/4",
      unsandboxed: false,
    });
    expect(statusOf(started.state.labels)).toBe("in-progress");
    expect(started.state.runUrl).toBe("https://run/4");
    expect(started.effects.map((effect) => effect.kind)).toEqual(["labels", "status"]);
    const back = applied(started.state, {
      kind: "restack-finished",
      resume: true,
      headline: "Rebased.",
      usd: 0.5,
      at: AT,
    });
    expect(statusOf(back.state.labels)).toBe("in-review");
    expect(back.state).toMatchObject({ costUsd: 1.5, daySpend: { day: "2026-11-24", usd: 0.5 } });

    const other = applied(task("in-progress"), {
      kind: "restack-started",
      headline: "Rebasing.",
      unsandboxed: false,
    });
    expect(other.effects.map((effect) => effect.kind)).toEqual(["status"]);
    const left = applied(other.state, {
      kind: "restack-finished",
      resume: false,
      headline: "Rebased.",
      usd: 0,
      at: AT,
    });
    expect(statusOf(left.state.labels)).toBe("in-progress");
    expect(left.effects.map((effect) => effect.kind)).toEqual(["status"]);
  });

  it("starts a round on a PR only for a task in review", () => {
    expect(roundCanStart(task("in-review").labels)).toBe(true);
    for (const status of [undefined, "queued", "in-progress", "waiting", "failed", "done"] as const)
      expect(roundCanStart(task(status).labels)).toBe(false);
  });
});

describe("the lifecycle's sweep, record and read-only steps", () => {
  it("claims a status by taking that label off alone, and refuses a status the task does not carry", () => {
    const claimed = applied(task("failed"), { kind: "sweep-claimed", from: "failed" });
    expect(claimed.effects).toEqual([{ kind: "remove-label", label: "locus:failed" }]);
    expect(statusOf(claimed.state.labels)).toBeUndefined();
    expect(step(task("queued"), { kind: "sweep-claimed", from: "failed" })).toEqual({
      refused: "the issue does not carry locus:failed",
    });
  });

  it("restores the labels a sweep read, written only when they differ", () => {
    const before = task("in-progress");
    const claimed = applied(before, { kind: "sweep-claimed", from: "in-progress" });
    const restored = applied(claimed.state, { kind: "claim-restored", labels: before.labels });
    expect(restored.effects).toEqual([{ kind: "labels", labels: before.labels }]);
    expect(applied(before, { kind: "claim-restored", labels: before.labels }).effects).toEqual([]);
  });

  it("takes a refused label off whatever the labels it was read with say", () => {
    expect(applied(task(undefined), { kind: "label-refused", label: "locus:failed" }).effects).toEqual([
      { kind: "remove-label", label: "locus:failed" },
    ]);
  });

  it("records a dispatch's deliveries, run, requester and CI-fix streak in the status comment only", () => {
    const ci = { heads: ["abc"], streak: 1, stopped: false };
    const recorded = applied(task("queued", { runUrl: "https://run/1" }), {
      kind: "dispatch-recorded",
      headline: "Queued.",
      deliveries: ["d-1", "body-1"],
      runUrl: null,
      requester: "alice",
      ci,
    });
    expect(recorded.effects).toHaveLength(1);
    expect(recorded.effects[0]?.kind).toBe("status");
    expect(recorded.state).toMatchObject({ deliveries: ["d-1", "body-1"], requester: "alice", ci });
    expect(recorded.state.runUrl).toBeUndefined();
    const kept = applied(task("queued", { runUrl: "https://run/1" }), {
      kind: "dispatch-recorded",
      headline: "Refused.",
      deliveries: ["d-2"],
    });
    expect(kept.state.runUrl).toBe("https://run/1");
  });

  it("adds a read-only run's cost to the day, and to the task only when it is the task's", () => {
    const start = task("in-review", { costUsd: 1 });
    const plan = applied(start, {
      kind: "read-only-finished",
      headline: "Planned.",
      taskCost: true,
      usd: 2,
      at: AT,
    });
    expect(plan.state.costUsd).toBe(3);
    expect(plan.state.daySpend).toEqual({ day: "2026-11-24", usd: 2 });
    const answer = applied(start, {
      kind: "read-only-finished",
      headline: "Answered.",
      taskCost: false,
      comment: "Locus could not answer.",
      usd: 2,
      at: AT,
    });
    expect(answer.state.costUsd).toBe(1);
    expect(answer.state.daySpend).toEqual({ day: "2026-11-24", usd: 2 });
    expect(answer.effects.map((effect) => effect.kind)).toEqual(["status", "comment"]);
    expect(answer.state.labels).toEqual(start.labels);
  });

  it("answers whether a task may start, and whether a rebase resumes review", () => {
    expect(canStart(task("queued").labels)).toBe(true);
    expect(canStart(task("in-review").labels)).toBe(false);
    expect(canStart(task("waiting").labels)).toBe(false);
    expect(resumesReview(task("in-review").labels, task("in-progress").labels)).toBe(true);
    expect(resumesReview(task("in-progress").labels, task("in-progress").labels)).toBe(false);
  });
});
