/**
 * Costs never silently vanish, through the bundled Action: a price given in
 * `agent.pricing` is used for the cost and its limits, for a coding task and
 * for a mode that only answers. The refusals of a model with no known price
 * (no model call, a reply saying how to give the price) are checked in
 * process, for every mode, in test/lib/task/refuse-unpriced-mode.test.ts.
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

describe("a priced model in the other modes", () => {
  it("a priced model (here from agent.pricing) still runs them", async () => {
    const issue = await h.api.createIssue({ title: "Question two", body: "" });
    h.fake.setScript([reply(call("finish", { summary: "In `src/greet.js:2`." }))]);
    const before = h.fake.requests.length;

    const run = await h.run({
      mode: "ask",
      issue: String(issue.number),
      command: "Where is the greeting built?",
      model: "claude-future-1",
    });

    expect(run.outputs["status"]).toBe("succeeded");
    expect(h.fake.requests.length).toBe(before + 1);
  });
});
