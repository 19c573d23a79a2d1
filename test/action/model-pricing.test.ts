/**
 * Costs never silently vanish: through the bundled Action, a task on a model
 * with no known price is not started (no model call, its status cleared so
 * nothing retries it, a comment saying how to give the price), and a price
 * given in `agent.pricing` is used for the cost and its limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    ".github/locus.yml": "version: 3\nagent:\n  pricing:\n    claude-future-1: { input: 3, output: 15 }\n",
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

describe("model pricing", () => {
  it("refuses a task on a model with no known price, before any model call", async () => {
    const issue = await h.api.createIssue({ title: "Greet politely", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), model: "claude-unknown-2" });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toEqual(["agent:managed"]);
    const refusal = after?.comments.find((c) => c.body.startsWith("Locus did not start this task."));
    expect(refusal?.body).toContain("does not know the price of model `claude-unknown-2`");
    expect(refusal?.body).toContain("agent.pricing");
  });

  it("uses the price config gives for a model Locus does not list", async () => {
    const issue = await h.api.createIssue({ title: "Greet kindly", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);

    const run = await h.run({ mode: "issue", issue: String(issue.number), model: "claude-future-1" });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(Number(run.outputs["cost-usd"])).toBeGreaterThan(0);
    expect((await h.api.getIssue(issue.number))?.labels).toContain("locus:in-review");
  });
});
