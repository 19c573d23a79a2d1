import { describe, expect, it } from "vitest";
import { continuesAfter, planSprint } from "../../../lib/sprint/plan.ts";
import type { SprintIssue } from "../../../lib/sprint/sprint-issue.ts";

function issue(number: number, labels: string[], state: "open" | "closed" = "open"): SprintIssue {
  return { number, labels, state };
}

describe("sprint execution plan", () => {
  it("skips completed tasks, retries failed ones in place and runs pending ones in order", () => {
    const plan = planSprint([
      issue(5, ["order:5", "locus:queued"]),
      issue(1, ["order:1", "locus:done"], "closed"),
      issue(2, ["order:2", "locus:in-review"]),
      issue(3, ["order:3", "locus:failed"]),
      issue(4, ["order:4", "locus:in-progress"]),
    ]);
    expect(plan.tasks.map((t) => [t.issue.number, t.action, t.position])).toEqual([
      [3, "retry", 3],
      [4, "resume", 4],
      [5, "run", 5],
    ]);
    expect(plan.completed.map((i) => i.number)).toEqual([1, 2]);
    expect(plan.total).toBe(5);
    expect(plan.idle).toBeUndefined();
  });

  it("runs a sprint with gaps in numeric order", () => {
    const plan = planSprint([
      issue(8, ["order:8"]),
      issue(5, ["order:5"]),
      issue(1, ["order:1"]),
      issue(2, ["order:2"]),
    ]);
    expect(plan.tasks.map((t) => t.order)).toEqual([1, 2, 5, 8]);
  });

  it("runs unordered issues last and reports them", () => {
    const plan = planSprint([issue(9, []), issue(2, ["order:1"])]);
    expect(plan.tasks.map((t) => t.issue.number)).toEqual([2, 9]);
    expect(plan.unordered).toEqual([9]);
  });

  it("leaves out closed issues that never completed", () => {
    const plan = planSprint([issue(1, ["order:1"], "closed"), issue(2, ["order:2"])]);
    expect(plan.tasks.map((t) => t.issue.number)).toEqual([2]);
    expect(plan.total).toBe(1);
  });

  it("is idle with a reason for an empty or finished sprint", () => {
    expect(planSprint([]).idle).toBe("No issues in sprint.");
    expect(planSprint([issue(1, ["order:1", "locus:done"], "closed")]).idle).toBe(
      "All tasks completed, nothing to run.",
    );
  });

  it("uses labels as the truth when a stale record disagrees", () => {
    // A run-state that thought #1 done is irrelevant: the plan reads labels only.
    const plan = planSprint([issue(1, ["order:1", "locus:failed"]), issue(2, ["order:2", "locus:queued"])]);
    expect(plan.tasks[0]).toEqual(expect.objectContaining({ action: "retry" }));
  });

  it("stops at the first failure only when stopOnFailure", () => {
    expect(continuesAfter("failed", true)).toBe(false);
    expect(continuesAfter("failed", false)).toBe(true);
    expect(continuesAfter("succeeded", true)).toBe(true);
  });
});
