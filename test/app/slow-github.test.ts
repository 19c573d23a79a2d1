/**
 * A slow GitHub must not serialise the app: deliveries for different issues are acknowledged at
 * once and worked side by side, so while every GitHub call is held, each delivery has its own
 * call in flight; once GitHub answers, every issue is dispatched. No timing is asserted: GitHub
 * is held by a gate, not by a clock.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newIssue, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

const ISSUES = 5;
const QUEUED = "locus:queued";

/** The simulator's latency fault waits on this instead of a timer, until `release()`. */
function createGate() {
  const waiting: (() => void)[] = [];
  const watchers: { count: number; resolve: () => void }[] = [];
  let open = false;
  return {
    delay(): Promise<void> {
      if (open) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        for (const watcher of watchers.filter((w) => waiting.length >= w.count)) watcher.resolve();
      });
    },
    /** Resolves once `count` GitHub calls are held at the same time. */
    held(count: number): Promise<void> {
      if (waiting.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => watchers.push({ count, resolve }));
    },
    get heldNow() {
      return waiting.length;
    },
    release() {
      open = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

let gate: ReturnType<typeof createGate>;
let h: AppHarness;
beforeEach(async () => {
  gate = createGate();
  h = await startAppHarness({ delay: () => gate.delay() });
});
afterEach(async () => {
  gate.release();
  await h.close();
});

describe("the app under a GitHub that does not answer", () => {
  it("works deliveries for different issues concurrently and dispatches each once GitHub answers", async () => {
    // One issue queued while GitHub answers: the app holds an installation token from then on,
    // as it does after its first event (every call of every event waits on that one token).
    const first = await newIssue(h, "Warm-up");
    await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: first, labels: [QUEUED] });
    await h.settle();
    expect(runs(h)).toHaveLength(1);
    const issues: number[] = [];
    for (let n = 0; n < ISSUES; n++) issues.push(await newIssue(h, `Task ${n}`));
    // Every call the app makes is held but the config read, which the deliveries in flight share
    // as one request; the person labelling the issues is not held either.
    h.sim.faults.add({
      kind: "latency",
      ms: 1,
      path: /^(?!\/repos\/[^/]+\/[^/]+\/(issues\/\d+\/labels$|contents\/))/,
    });
    h.sim.faults.add({ kind: "latency", ms: 1, method: "GET", path: "/repos/*/*/issues/*/labels" });
    h.sim.faults.add({ kind: "latency", ms: 1, method: "PUT", path: "/repos/*/*/issues/*/labels" });
    const delivered = h.sim.webhooks.deliveries.length;
    for (const issue of issues) {
      await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [QUEUED] });
    }

    // Acknowledged while GitHub holds every call the work makes.
    await h.sim.webhooks.drain();
    const labelled = h.sim.webhooks.deliveries.slice(delivered);
    expect(labelled.map((d) => `${d.event}.${d.action ?? ""} ${d.status ?? d.error ?? ""}`)).toEqual(
      issues.map(() => "issues.labeled 200"),
    );
    // Each delivery's first call is in flight at once (one lane at a time would hold one).
    await gate.held(ISSUES);
    expect(gate.heldNow).toBe(ISSUES);
    expect(runs(h)).toHaveLength(1);

    gate.release();
    await h.settle();
    const dispatched = runs(h).map((run) => Number(run.inputs.issue));
    expect(dispatched.sort((a, b) => a - b)).toEqual([first, ...issues]);
  });
});
