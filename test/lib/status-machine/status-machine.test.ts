import { describe, expect, it } from "vitest";
import { LOCUS_LABELS, STATUSES, orderLabel, statusLabel } from "../../../lib/labels/schema.ts";
import {
  canTransition,
  isCompleted,
  sameLabelSet,
  statusOf,
  transition,
  withStatus,
  type StatusEvent,
} from "../../../lib/status-machine/status-machine.ts";

describe("label schema", () => {
  it("defines every label of docs/contracts.md once, with valid colours", () => {
    const names = LOCUS_LABELS.map((label) => label.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        "p:critical",
        "p:low",
        "type:feature",
        "type:docs",
        "locus:queued",
        "locus:failed",
        "agent:managed",
      ]),
    );
    for (const label of LOCUS_LABELS) expect(label.color).toMatch(/^[0-9a-f]{6}$/);
    expect(names.some((name) => name.startsWith("order:"))).toBe(false);
  });

  it("colours failed red, waiting yellow and the other statuses green", () => {
    const colour = (status: (typeof STATUSES)[number]) =>
      LOCUS_LABELS.find((label) => label.name === statusLabel(status))?.color;
    expect(colour("failed")).toBe("d73a4a");
    const [wr, wg, wb] = [0, 2, 4].map((i) => parseInt((colour("waiting") ?? "").slice(i, i + 2), 16)) as [
      number,
      number,
      number,
    ];
    expect(Math.min(wr, wg)).toBeGreaterThan(wb + 100);
    for (const status of STATUSES.filter((s) => s !== "failed" && s !== "waiting")) {
      const hex = colour(status) ?? "";
      const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
      expect(g).toBeGreaterThan(r);
      expect(g).toBeGreaterThan(b);
    }
  });

  it("makes order labels on demand, grey", () => {
    expect(orderLabel(7)).toEqual(expect.objectContaining({ name: "order:7", group: "order" }));
  });
});

describe("status machine", () => {
  it("walks the happy path of the status machine", () => {
    let labels: string[] = ["type:bug"];
    const path: Array<[StatusEvent, string]> = [
      ["queue", "locus:queued"],
      ["start", "locus:in-progress"],
      ["deliver", "locus:in-review"],
      ["iterate", "locus:in-progress"],
      ["deliver", "locus:in-review"],
      ["merge", "locus:done"],
    ];
    for (const [event, expected] of path) {
      const result = transition(labels, event);
      if (!result.ok) throw new Error(result.message);
      expect(result.labels.filter((l) => l.startsWith("locus:"))).toEqual([expected]);
      labels = result.labels;
    }
    expect(labels).toEqual(["type:bug", "agent:managed", "locus:done"]);
  });

  it("computes the whole label set, keeping every non-Locus label", () => {
    const result = transition(["bug", "locus:queued", "order:3", "help wanted", "agent:managed"], "start");
    expect(result).toEqual({
      ok: true,
      from: "queued",
      to: "in-progress",
      labels: ["bug", "order:3", "help wanted", "agent:managed", "locus:in-progress"],
      changed: true,
    });
  });

  it("refuses illegal transitions with a readable message", () => {
    const result = transition(["locus:done"], "queue");
    expect(result).toEqual({ ok: false, from: "done", message: "Cannot queue an issue that is locus:done." });
    expect(canTransition(undefined, "deliver")).toBe(false);
    expect(canTransition("in-review", "fail")).toBe(false);
    expect(canTransition("failed", "queue")).toBe(true);
    expect(canTransition("in-progress", "requeue-stale")).toBe(true);
    expect(canTransition("queued", "requeue-stale")).toBe(false);
  });

  it("waits on a question: in-progress → waiting → (a writer answers) queued", () => {
    const asked = transition(["type:bug", "locus:in-progress", "agent:managed"], "ask");
    expect(asked).toMatchObject({ ok: true, to: "waiting" });
    const labels = asked.ok ? asked.labels : [];
    expect(labels).toEqual(["type:bug", "agent:managed", "locus:waiting"]);
    expect(transition(labels, "answer")).toMatchObject({ ok: true, to: "queued" });
    // Nothing but an answer, a cancel, a merge or a writer's `/locus run` moves a waiting task.
    for (const event of ["start", "fail", "requeue-stale", "deliver", "iterate"] as const)
      expect(canTransition("waiting", event)).toBe(false);
    expect(canTransition("waiting", "queue")).toBe(true);
    expect(canTransition("queued", "answer")).toBe(false);
  });

  it("clears the status on cancel and on a PR closed unmerged, keeping every other label", () => {
    for (const status of ["queued", "in-progress", "waiting", "failed"]) {
      expect(transition(["x", `locus:${status}`, "agent:managed"], "cancel")).toEqual({
        ok: true,
        from: status,
        to: undefined,
        labels: ["x", "agent:managed"],
        changed: true,
      });
    }
    expect(canTransition("in-review", "cancel")).toBe(false);
    expect(canTransition(undefined, "cancel")).toBe(false);
    expect(transition(["locus:in-review", "order:2"], "close-unmerged")).toMatchObject({
      ok: true,
      to: undefined,
      labels: ["order:2", "agent:managed"],
    });
    expect(canTransition("done", "close-unmerged")).toBe(false);
    // A cleared task is neither completed nor retried: `fail` and `requeue-stale` do not apply.
    expect(canTransition(undefined, "fail")).toBe(false);
  });

  it("repairs an issue carrying several statuses to exactly one", () => {
    const labels = ["locus:queued", "locus:failed", "x"];
    expect(statusOf(labels)).toBe("failed");
    const result = transition(labels, "queue");
    expect(result.ok && result.labels).toEqual(["x", "locus:queued", "agent:managed"]);
  });

  it("reports an unchanged label set so no call is made", () => {
    const result = transition(["locus:in-progress", "agent:managed"], "start");
    expect(result.ok && result.changed).toBe(false);
  });

  it("treats in-review and done as completed, nothing else", () => {
    expect(STATUSES.filter((status) => isCompleted(status))).toEqual(["in-review", "done"]);
    expect(isCompleted(undefined)).toBe(false);
  });

  it("ignores look-alike labels", () => {
    expect(statusOf(["locus:unknown", "Locus:queued"])).toBeUndefined();
    expect(withStatus(["locus:unknown"], "queued")).toEqual([
      "locus:unknown",
      "locus:queued",
      "agent:managed",
    ]);
  });

  it("compares label sets regardless of order", () => {
    expect(sameLabelSet(["a", "b"], ["b", "a"])).toBe(true);
    expect(sameLabelSet(["a"], ["a", "b"])).toBe(false);
  });
});
