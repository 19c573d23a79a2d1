import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextOrder, orderOf, parseOrder, sortByOrder, withOrder } from "../../../lib/sprint/order.ts";
import { reorder } from "../../../lib/sprint/reorder.ts";
import type { SprintIssue } from "../../../lib/sprint/sprint-issue.ts";

function issue(number: number, labels: string[], state: "open" | "closed" = "open"): SprintIssue {
  return { number, labels, state };
}

describe("order labels", () => {
  it("parses order:N strictly", () => {
    expect(parseOrder("order:1")).toBe(1);
    expect(parseOrder("order:250")).toBe(250);
    for (const bad of [
      "order:0",
      "order:-1",
      "order:01",
      "order:1.5",
      "order: 2",
      "Order:2",
      "order:",
      "xorder:2",
    ]) {
      expect(parseOrder(bad)).toBeUndefined();
    }
  });

  it("sorts numerically with gaps (1, 2, 5, 8) and reports issues without an order", () => {
    const issues = [
      issue(4, ["order:8"]),
      issue(3, ["order:5"]),
      issue(9, []),
      issue(1, ["order:10"]),
      issue(2, ["order:2"]),
      issue(7, ["order:1"]),
    ];
    const { ordered, unordered } = sortByOrder(issues);
    expect(ordered.map((entry) => entry.order)).toEqual([1, 2, 5, 8, 10]);
    expect(ordered.map((entry) => entry.issue.number)).toEqual([7, 2, 3, 4, 1]);
    expect(unordered.map((entry) => entry.number)).toEqual([9]);
  });

  it("runs an issue with two order labels at the lowest", () => {
    expect(orderOf(["order:9", "order:3"])).toBe(3);
  });

  it("gives a new issue max+1 over open and closed issues", () => {
    expect(nextOrder([])).toBe(1);
    expect(nextOrder([issue(1, ["order:2"]), issue(2, ["order:7"], "closed"), issue(3, [])])).toBe(8);
  });

  it("replaces the order label and keeps the rest", () => {
    expect(withOrder(["a", "order:3", "b"], 5)).toEqual(["a", "b", "order:5"]);
  });
});

describe("reorder (completed orders frozen, new orders from floor + 1)", () => {
  const sprint = [
    issue(10, ["order:1", "locus:done"], "closed"),
    issue(11, ["order:2", "locus:done"], "closed"),
    issue(12, ["order:3", "locus:done"], "closed"),
    issue(13, ["order:4", "locus:in-review"]),
    issue(14, ["order:5", "locus:done"], "closed"),
    issue(15, ["order:6", "locus:queued"]),
    issue(16, ["order:7", "locus:queued"]),
    issue(17, ["order:8", "locus:failed"]),
  ];

  it("reorders 17 15 16 after five frozen orders → orders 6, 7, 8", () => {
    const result = reorder(sprint, [17, 15, 16]);
    expect(result).toEqual({
      ok: true,
      floor: 5,
      changes: [
        { number: 17, from: 8, to: 6, labels: ["locus:failed", "order:6"] },
        { number: 15, from: 6, to: 7, labels: ["locus:queued", "order:7"] },
        { number: 16, from: 7, to: 8, labels: ["locus:queued", "order:8"] },
      ],
    });
  });

  it("changes nothing for an issue already in place", () => {
    const result = reorder(sprint, [15, 17, 16]);
    expect(result.ok && result.changes.map((change) => change.number)).toEqual([17, 16]);
  });

  it("refuses a completed task", () => {
    expect(reorder(sprint, [13, 15, 16, 17])).toEqual({
      ok: false,
      message: "Task #13 is completed and cannot be reordered.",
    });
  });

  it("refuses unknown, duplicate and missing issues", () => {
    expect(reorder(sprint, [15, 16, 17, 99])).toEqual({ ok: false, message: "#99 is not in this sprint." });
    expect(reorder(sprint, [15, 15, 16, 17])).toEqual({ ok: false, message: "#15 is listed twice." });
    expect(reorder(sprint, [15])).toEqual({
      ok: false,
      message: "The new order must list every task not yet completed; missing: #16, #17.",
    });
  });

  it("says so when everything is completed, or the sprint is empty", () => {
    expect(reorder([issue(1, ["order:1", "locus:done"], "closed")], [1])).toEqual({
      ok: false,
      message: "All tasks completed, nothing to reorder.",
    });
    expect(reorder([], [1])).toEqual({ ok: false, message: "No issues in sprint." });
  });

  it("reorders freely from order:1 when nothing is completed, including unordered issues", () => {
    const result = reorder([issue(1, ["order:1"]), issue(2, ["order:2"]), issue(3, [])], [3, 2, 1]);
    expect(result.ok && result.changes.map((c) => [c.number, c.to])).toEqual([
      [3, 1],
      [1, 3],
    ]);
  });

  it("freezes a closed, never-completed issue too, and says why", () => {
    const result = reorder([issue(1, ["order:4"], "closed"), issue(2, ["order:1"])], [1, 2]);
    expect(result).toEqual({ ok: false, message: "Task #1 is closed and cannot be reordered." });
    const moved = reorder([issue(1, ["order:4"], "closed"), issue(2, ["order:1"])], [2]);
    expect(moved.ok && moved.changes).toEqual([{ number: 2, from: 1, to: 5, labels: ["order:5"] }]);
  });

  const statusArb = fc.constantFrom(undefined, "queued", "in-progress", "in-review", "done", "failed");
  const sprintArb = fc
    .uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 25 })
    .chain((numbers) =>
      fc.tuple(
        fc.constant(numbers),
        fc.array(fc.tuple(statusArb, fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined })), {
          minLength: numbers.length,
          maxLength: numbers.length,
        }),
      ),
    )
    .map(([numbers, attrs]) =>
      numbers.map((number, i) => {
        const [status, order] = attrs[i] ?? [undefined, undefined];
        const labels = [
          ...(status ? [`locus:${status}`] : []),
          ...(order === undefined ? [] : [`order:${order}`]),
        ];
        return issue(number, labels, status === "done" ? "closed" : "open");
      }),
    );

  it("keeps its invariants for any sprint and any permutation (property)", () => {
    fc.assert(
      fc.property(sprintArb, fc.integer(), (issues, seed) => {
        const movable = issues.filter(
          (i) => !["locus:in-review", "locus:done"].some((s) => i.labels.includes(s)),
        );
        const permutation = [...movable]
          .map((i, k) => ({ i, key: (Math.imul(seed ^ (k * 2654435761), 2246822519) >>> 0) % 1000 }))
          .sort((a, b) => a.key - b.key)
          .map((entry) => entry.i.number);
        const result = reorder(issues, permutation);
        if (movable.length === 0) {
          expect(result.ok).toBe(false);
          return;
        }
        if (!result.ok) throw new Error(result.message);
        const after = new Map(issues.map((i) => [i.number, orderOf(i.labels)]));
        for (const change of result.changes) after.set(change.number, orderOf(change.labels));
        // Completed issues never move.
        for (const i of issues.filter((i) => !movable.includes(i))) {
          expect(result.changes.some((c) => c.number === i.number)).toBe(false);
        }
        // The requested sequence gets strictly increasing orders, all above the floor.
        const orders = permutation.map((n) => after.get(n) ?? 0);
        orders.forEach((order, k) => {
          expect(order).toBe(result.floor + 1 + k);
        });
        for (const i of issues.filter((i) => !movable.includes(i))) {
          expect(orderOf(i.labels) ?? 0).toBeLessThanOrEqual(result.floor);
        }
        // Every change carries exactly one order label and keeps the other labels.
        for (const change of result.changes) {
          const before = issues.find((i) => i.number === change.number)?.labels ?? [];
          expect(change.labels.filter((l) => l.startsWith("order:"))).toHaveLength(1);
          expect(change.labels.filter((l) => !l.startsWith("order:"))).toEqual(
            before.filter((l) => !l.startsWith("order:")),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
