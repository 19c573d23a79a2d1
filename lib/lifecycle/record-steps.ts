/**
 * The lifecycle's steps that write only the status comment: what the app
 * recorded for a dispatch (the deliveries acted on, the run, who asked, the
 * CI-fix streak), a CI-fix streak that stopped, and a read-only run (plan,
 * review, ask) from start to end. No label moves: a read-only run changes
 * no status, and the dispatched run moves the labels itself.
 */
import { withDelivery } from "../status/status-comment.ts";
import { daySpend, shown, spend, withRun } from "./lifecycle-moves.ts";
import type { Effect, RecordEvent, Step, TaskEvent, TaskState } from "./task-events.ts";

export function recordStep(task: TaskState, event: RecordEvent): Step {
  switch (event.kind) {
    case "dispatch-recorded": {
      let state: TaskState = task;
      for (const delivery of event.deliveries)
        state = { ...withDelivery(state, delivery), labels: task.labels };
      // Without a run named, an earlier run's link would mislead: it goes until the new run writes its own.
      if (event.runUrl !== undefined) state = { ...state, runUrl: event.runUrl ?? undefined };
      // The requester was checked for write access for this delivery (the first): its run may take that check as its own.
      if (event.requester) {
        state = { ...state, requester: event.requester, requesterDelivery: event.deliveries[0] };
      }
      if (event.ci) state = { ...state, ci: event.ci };
      return { state, effects: [shown(state, { headline: event.headline })] };
    }
    case "ci-fix-stopped": {
      const state = { ...task, ci: event.ci };
      return { state, effects: [shown(state, { headline: event.headline })] };
    }
  }
}

type ReadOnlyEvent = Extract<TaskEvent, { kind: "read-only-started" | "read-only-finished" }>;

export function readOnlyStep(task: TaskState, event: ReadOnlyEvent): Step {
  if (event.kind === "read-only-started") {
    const state = withRun(task, event.runUrl, event.unsandboxed);
    return { state, effects: [shown(state, { headline: event.headline })] };
  }
  const state = event.taskCost ? spend(task, event) : daySpend(task, event);
  const comment: Effect[] = event.comment ? [{ kind: "comment", role: "outcome", body: event.comment }] : [];
  return { state, effects: [shown(state, { headline: event.headline }), ...comment] };
}
