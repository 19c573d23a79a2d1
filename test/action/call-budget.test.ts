/**
 * Five GitHub requests per standalone task, in the cases that used to cost
 * more: a repository without Locus's labels (each write fell back to its own
 * REST call) and a task a person triggered, whose write access the Action
 * re-checked with a request of its own. Counted off the simulator's request
 * log, the bundled Action run as a runner runs it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { RequestLogEntry } from "../../sandbox/github-sim/index.ts";
import { arrangeStatus, startHarness, type ActionRun, type Harness } from "./harness.ts";

/** What a standalone task may cost: its read, its start, one progress edit, its PR, its end. */
const TASK_BUDGET = 5;

let h: Harness;

beforeAll(async () => {
  // No installLabels: the repository has none of Locus's labels, as one the app was never installed on.
  h = await startHarness();
  h.repo.collaborator("alice", "write");
}, 60_000);

afterAll(async () => {
  await h.close();
});

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

interface Counted {
  readonly run: ActionRun;
  /** The requests of the task: every API call but token mints and the run's one bot-id lookup. */
  readonly task: readonly string[];
  readonly identityLookups: number;
}

async function countedRun(
  issue: number,
  delivery = randomUUID(),
  env: Record<string, string> = {},
): Promise<Counted> {
  h.fake.setScript(greetHi);
  const start = h.sim.requestLog.length;
  const run = await h.run({ mode: "issue", issue: String(issue), delivery }, env);
  const calls = h.sim.requestLog.slice(start).filter((e) => !e.path.endsWith("/access_tokens"));
  // The key fallback asks GitHub for its bot's user id once per run, for the commits' noreply address.
  const identity = (e: RequestLogEntry) => e.method === "GET" && e.path.startsWith("/users/");
  return {
    run,
    task: calls.filter((e) => !identity(e)).map((e) => e.operationName ?? `${e.method} ${e.path}`),
    identityLookups: calls.filter(identity).length,
  };
}

describe("a standalone task's GitHub requests", () => {
  it(`stay ${TASK_BUDGET} in a repository without Locus's labels: they are created once, in one request`, async () => {
    const first = await h.api.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    const second = await h.api.createIssue({
      title: "Greet kindly",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });

    const created = await countedRun(first.number);
    const later = await countedRun(second.number);

    expect(created.run.outputs["status"]).toBe("succeeded");
    expect(later.run.outputs["status"]).toBe("succeeded");
    // The first task creates every label a task sets, in one request; no write falls back to REST.
    expect(created.task.filter((name) => name === "CreateLabels")).toHaveLength(1);
    expect(created.task.filter((name) => name !== "CreateLabels").length).toBeLessThanOrEqual(TASK_BUDGET);
    expect(created.task.filter((name) => name.startsWith("PUT "))).toEqual([]);
    expect(later.task).not.toContain("CreateLabels");
    expect(later.task.length).toBeLessThanOrEqual(TASK_BUDGET);
    expect(created.identityLookups + later.identityLookups).toBeLessThanOrEqual(2);
    expect((await h.api.getIssue(second.number))?.labels).toContain("locus:in-review");
  });

  it(`stay ${TASK_BUDGET} when a person triggered the task and the app checked them for this run`, async () => {
    const issue = await h.api.createIssue({ title: "Greet warmly", body: "Say Hi." });
    await h.as("alice").setLabels(issue.number, ["locus:queued"]);
    // As the app leaves it when it dispatches for alice's label: it checked her for this delivery.
    const delivery = randomUUID();
    await arrangeStatus(h, issue.number, {
      deliveries: [delivery],
      attempts: 0,
      requester: "alice",
      requesterDelivery: delivery,
    });

    const counted = await countedRun(issue.number, delivery);

    expect(counted.run.outputs["status"]).toBe("succeeded");
    expect(counted.task.filter((name) => name.includes("/permission"))).toEqual([]);
    expect(counted.task.length).toBeLessThanOrEqual(TASK_BUDGET);
  });

  it(`stay ${TASK_BUDGET} when a person dispatched the run by hand: GitHub checked their write access`, async () => {
    const issue = await h.api.createIssue({ title: "Greet briefly", body: "Say Hi." });
    await h.as("alice").setLabels(issue.number, ["locus:queued"]);

    const counted = await countedRun(issue.number, randomUUID(), {
      GITHUB_ACTOR: "alice",
      GITHUB_EVENT_NAME: "workflow_dispatch",
    });

    expect(counted.run.outputs["status"]).toBe("succeeded");
    expect(counted.task.filter((name) => name.includes("/permission"))).toEqual([]);
    expect(counted.task.length).toBeLessThanOrEqual(TASK_BUDGET);
  });

  it("look a person up who started the run through another event", async () => {
    const issue = await h.api.createIssue({ title: "Greet shortly", body: "Say Hi." });
    await h.as("alice").setLabels(issue.number, ["locus:queued"]);

    const counted = await countedRun(issue.number, randomUUID(), {
      GITHUB_ACTOR: "alice",
      GITHUB_EVENT_NAME: "issues",
    });

    expect(counted.run.outputs["status"]).toBe("succeeded");
    expect(counted.task.filter((name) => name.includes("/permission"))).toEqual([
      expect.stringContaining("/collaborators/alice/permission"),
    ]);
  });

  it("look the person up when the app's check was for another delivery", async () => {
    const issue = await h.api.createIssue({ title: "Greet gently", body: "Say Hi." });
    await h.as("alice").setLabels(issue.number, ["locus:queued"]);
    await arrangeStatus(h, issue.number, {
      deliveries: ["earlier"],
      attempts: 0,
      requester: "alice",
      requesterDelivery: "earlier",
    });

    const counted = await countedRun(issue.number);

    expect(counted.run.outputs["status"]).toBe("succeeded");
    expect(counted.task.filter((name) => name.includes("/permission"))).toEqual([
      expect.stringContaining("/collaborators/alice/permission"),
    ]);
  });
});
