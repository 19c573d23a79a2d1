/**
 * A model chosen by `/locus run model=<id>` or `/locus iterate model=<id>`, through the bundled
 * Action: the app passes it in the `command` input, the Action checks it again against config
 * (anyone with write access can dispatch by hand) and the model stand-in gets that model. A model
 * the config does not list is refused with one comment before any model call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    ".github/locus.yml": "version: 3\nagent:\n  model: claude-sonnet-4-6\n  models: [claude-opus-4-8]\n",
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

const modelsAsked = (from: number) =>
  h.fake.requests.slice(from).map((request) => (request.body as { model?: string }).model);

describe("a model chosen by the command", () => {
  it("runs the task on that model and names it in the PR", async () => {
    const issue = await h.api.createIssue({ title: "Hard task", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), command: "model=claude-opus-4-8" });

    expect(run.outputs["status"]).toBe("succeeded");
    expect(modelsAsked(before)).toEqual(["claude-opus-4-8", "claude-opus-4-8"]);
    const pr = await h.api.getPullRequest(Number(run.outputs["pr-number"]));
    expect(pr?.body).toContain("claude-opus-4-8");
  });

  it("refuses a model the config does not list, before any model call, saying which it allows", async () => {
    const issue = await h.api.createIssue({ title: "Expensive task", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), command: "model=claude-fable-5" });

    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const after = await h.api.getIssue(issue.number);
    const refusals = after?.comments.filter((c) => c.body.startsWith("Locus did not start this task."));
    expect(refusals?.map((c) => c.body)).toEqual([
      expect.stringContaining("Model `claude-fable-5` is not allowed here; this repository allows"),
    ]);
    expect(after?.labels).not.toContain("locus:in-progress");
  });

  it("runs an iterate round on the chosen model, the rest of the command as its note", async () => {
    const issue = await h.api.createIssue({ title: "Greet warmly", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const first = await h.run({ mode: "issue", issue: String(issue.number) });
    const pr = first.outputs["pr-number"] ?? "";
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hi, ", new_text: "Hi there, " })),
      reply(call("finish", { summary: "Warmer." })),
    ]);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "iterate", pr, command: "model=claude-opus-4-8 make it warmer" });

    expect(run.outputs["status"]).toBe("succeeded");
    expect(modelsAsked(before)).toEqual(["claude-opus-4-8", "claude-opus-4-8"]);
    const prompt = JSON.stringify(h.fake.requests[before]?.body);
    expect(prompt).toContain("make it warmer");
    expect(prompt).not.toContain("model=claude-opus-4-8");
  });
});
