/**
 * Five GitHub requests per standalone task in a repository without Locus's
 * labels (each write used to fall back to its own REST call): counted off the
 * simulator's request log, the bundled Action run as a runner runs it, since
 * only the real gateway's HTTP requests show the labels' creation, the REST
 * fallback and the run's bot-id lookup. A task a person triggered, whose
 * write access is looked up only when nothing checked it already, runs in
 * process: test/lib/task/task-call-budget.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { RequestLogEntry } from "../../sandbox/github-sim/index.ts";
import { startHarness, type ActionRun, type Harness } from "./harness.ts";

/** What a standalone task may cost: its read, its start, one progress edit, its PR, its end. */
const TASK_BUDGET = 5;

let h: Harness;

beforeAll(async () => {
  // No installLabels: the repository has none of Locus's labels, as one the app was never installed on.
  h = await startHarness();
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

async function countedRun(issue: number): Promise<Counted> {
  h.fake.setScript(greetHi);
  const start = h.sim.requestLog.length;
  const run = await h.run({ mode: "issue", issue: String(issue), delivery: randomUUID() });
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
});
