/**
 * `/locus run model=<id>` and `/locus iterate model=<id>` through the bundled
 * Action: a hand-dispatched run by someone without write access cannot choose
 * a model (the Action's refusal, its exit code and what it prints), and
 * iterate runs on the chosen model (the typed fake does not model a pull
 * request's feedback read yet). The chosen model on `/locus run`, and the
 * refusals of a model `agent.models` does not list or one with no price, run
 * in process: test/lib/action/modes/per-command-model.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    ".github/locus.yml": "version: 3\nagent:\n  models: [claude-opus-4-8, claude-future-1]\n",
  });
  h.repo.collaborator("rita", "read");
}, 60_000);

afterAll(async () => {
  await h.close();
});

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

function modelsAsked(from: number): string[] {
  return h.fake.requests.slice(from).map((r) => String((r.body as { model?: unknown }).model));
}

describe("model=<id> on /locus run", () => {
  it("refuses a hand-dispatched run with a model from someone without write access", async () => {
    const issue = await h.api.createIssue({ title: "Greet sneakily", labels: ["locus:queued"] });
    const before = h.fake.requests.length;

    const run = await h.run(
      { mode: "issue", issue: String(issue.number), command: "model=claude-opus-4-8" },
      { GITHUB_ACTOR: "rita" },
    );

    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("Refused: @rita has read permission");
    expect(h.fake.requests.length).toBe(before);
    expect((await h.api.getIssue(issue.number))?.labels).toEqual(["locus:queued"]);
  });
});

describe("model=<id> on /locus iterate", () => {
  it("addresses the feedback on the chosen model, with the rest of the command as the note", async () => {
    const created = await h.api.createIssue({ title: "Greet warmly", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const first = await h.run({ mode: "issue", issue: String(created.number) });
    const pr = Number(first.outputs["pr-number"]);
    h.fake.setScript([reply(call("finish", { summary: "Kept it short." }))]);
    const before = h.fake.requests.length;

    const run = await h.run({
      mode: "iterate",
      pr: String(pr),
      command: "model=claude-opus-4-8 keep it short",
    });

    expect(run.code).toBe(0);
    expect(modelsAsked(before)).toEqual(["claude-opus-4-8"]);
    const prompt = JSON.stringify(h.fake.requests[before]?.body);
    expect(prompt).toContain("keep it short");
    expect(prompt).not.toContain("model=claude-opus-4-8");
  });
});
