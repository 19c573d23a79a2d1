/**
 * Five GitHub calls per standalone task when a person triggered it: the
 * person's write access is looked up only when nothing checked it for this
 * run already (the app, for this delivery; GitHub, for a run dispatched by
 * hand). The Action's requester check (lib/trust/requester.ts) and mode
 * `issue` run in process in a task world (test/fakes/task-world.ts), counted
 * off the typed fake's calls. The label-less repository's case, counted in
 * HTTP requests of the real gateway, stays with the bundle in
 * test/action/call-budget.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { hiddenMarker } from "../../../lib/markers.ts";
import { renderStatusComment, type StatusState } from "../../../lib/status/status-comment.ts";
import { overallStatus } from "../../../lib/task/task-report.ts";
import { refuseRequester } from "../../../lib/trust/requester.ts";
import { selfLogins } from "../../../lib/trust/self-logins.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { replaceLabels } from "../../fakes/github-fake-store.ts";
import { startTaskWorld, type RunOverrides, type TaskWorld } from "../../fakes/task-world.ts";

/** What a standalone task may cost: its read, its start, one progress edit, its PR, its end. */
const TASK_BUDGET = 5;

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld({ github: { permissions: { alice: "write" } } });
}, 60_000);

afterAll(async () => {
  await w.close();
});

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

/** An issue Locus opened that alice queued, as she would with her label. */
function queuedByAlice(title: string): number {
  const issue = w.github.seedIssue({ title, body: "Say Hi.", author: w.github.store.self });
  replaceLabels(w.github.store, issue, ["locus:queued"], "alice");
  return issue.number;
}

/** The status comment the app leaves when it dispatches: who it checked, for which delivery. */
function arrangeStatus(issue: number, state: StatusState): void {
  const body = `${hiddenMarker("status")}\n${renderStatusComment({ headline: "Queued." }, state)}`;
  w.github.seedComment(issue, body, w.github.store.self);
}

/**
 * One run as the Action makes it: the requester check (`dispatched` as GITHUB_EVENT_NAME
 * `workflow_dispatch` sets it), then the task. Answers the run's status and its calls' members.
 */
async function countedRun(issue: number, run: RunOverrides & { readonly dispatched?: boolean } = {}) {
  w.anthropic.setScript(greetHi);
  const start = w.github.calls.length;
  const ctx = await w.context(run);
  const refusal = await refuseRequester(
    w.github,
    { actor: ctx.run.actor, dispatched: run.dispatched ?? false },
    selfLogins(ctx),
    ctx.config,
  );
  expect(refusal).toBeUndefined();
  const result = await runIssueMode(ctx, [issue]);
  const calls = w.github.calls.slice(start);
  return {
    status: overallStatus(result),
    task: calls.map((c) => c.member),
    /** Whose write access the run looked up, one entry per lookup. */
    lookups: calls.filter((c) => c.member === "getCollaboratorPermission").map((c) => c.args),
  };
}

describe("a standalone task's GitHub calls, in process", () => {
  it(`stay ${TASK_BUDGET} when a person triggered the task and the app checked them for this run`, async () => {
    const issue = queuedByAlice("Greet warmly");
    // As the app leaves it when it dispatches for alice's label: it checked her for this delivery.
    const delivery = "delivery-checked";
    arrangeStatus(issue, {
      deliveries: [delivery],
      attempts: 0,
      requester: "alice",
      requesterDelivery: delivery,
    });

    const counted = await countedRun(issue, { delivery });

    expect(counted.status).toBe("succeeded");
    expect(counted.lookups).toEqual([]);
    expect(counted.task.length).toBeLessThanOrEqual(TASK_BUDGET);
  });

  it(`stay ${TASK_BUDGET} when a person dispatched the run by hand: GitHub checked their write access`, async () => {
    const issue = queuedByAlice("Greet briefly");

    const counted = await countedRun(issue, { actor: "alice", dispatched: true });

    expect(counted.status).toBe("succeeded");
    expect(counted.lookups).toEqual([]);
    expect(counted.task.length).toBeLessThanOrEqual(TASK_BUDGET);
  });

  it("look a person up who started the run through another event", async () => {
    const issue = queuedByAlice("Greet shortly");

    const counted = await countedRun(issue, { actor: "alice", dispatched: false });

    expect(counted.status).toBe("succeeded");
    expect(counted.lookups).toEqual([["alice"]]);
  });

  it("look the person up when the app's check was for another delivery", async () => {
    const issue = queuedByAlice("Greet gently");
    arrangeStatus(issue, {
      deliveries: ["earlier"],
      attempts: 0,
      requester: "alice",
      requesterDelivery: "earlier",
    });

    const counted = await countedRun(issue);

    expect(counted.status).toBe("succeeded");
    expect(counted.lookups).toEqual([["alice"]]);
  });
});
