/**
 * `/locus run model=<id>` and `/locus iterate model=<id>` through the bundled
 * Action: the chosen model reaches the model API and the status comment names
 * it; a model `agent.models` does not list, or one with no price, is refused
 * before any model call (the app refuses it before dispatching; this is the
 * Action's own check, for a run dispatched by hand); and a hand-dispatched run
 * by someone without write access cannot choose a model.
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

/** Every text Locus's status comment on `issue` has held, oldest first. */
function statusRevisions(issue: number): string[] {
  const status = h.repo.repo.comments.find(
    (c) => c.issueNumber === issue && c.body.startsWith("<!-- locus:status -->"),
  );
  if (!status) return [];
  return status.edits ? status.edits.map((edit) => edit.body ?? "") : [status.body];
}

function modelsAsked(from: number): string[] {
  return h.fake.requests.slice(from).map((r) => String((r.body as { model?: unknown }).model));
}

describe("model=<id> on /locus run", () => {
  it("runs the task on the chosen model and the status comment names it", async () => {
    const issue = await h.api.createIssue({ title: "Greet politely", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), command: "model=claude-opus-4-8" });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(modelsAsked(before)).toEqual(["claude-opus-4-8", "claude-opus-4-8"]);
    expect(statusRevisions(issue.number).some((body) => body.includes("`claude-opus-4-8`"))).toBe(true);
  });

  it("refuses a model agent.models does not list, before any model call", async () => {
    const issue = await h.api.createIssue({ title: "Greet grandly", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), command: "model=claude-opus-5" });

    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const after = await h.api.getIssue(issue.number);
    const said = after?.comments.map((c) => c.body) ?? [];
    const refusal = said.find((body) => body.startsWith("Locus did not start this task."));
    expect(refusal).toContain("Model `claude-opus-5` is not allowed here");
    expect(refusal).toContain("`agent.models`");
    // Like an unpriced model: the status is cleared so nothing retries it until a person acts.
    expect(after?.labels).toEqual(["agent:managed"]);
  });

  it("refuses a listed model with no price, before any model call", async () => {
    const issue = await h.api.createIssue({ title: "Greet futuristically", labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), command: "model=claude-future-1" });

    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const said = (await h.api.getIssue(issue.number))?.comments.map((c) => c.body) ?? [];
    const refusal = said.find((body) => body.startsWith("Locus did not start this task."));
    expect(refusal).toContain("does not know the price of model `claude-future-1`");
  });

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
