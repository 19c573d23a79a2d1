/**
 * Costs never silently vanish: through the bundled Action, a task on a model
 * with no known price is not started (no model call, its status cleared so
 * nothing retries it, a comment saying how to give the price), and a price
 * given in `agent.pricing` is used for the cost and its limits. Every other
 * mode that calls a model refuses it too, as it starts, with a reply in the
 * thread that asked.
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

describe("an unpriced model in the other modes", () => {
  /** A Locus PR for a fresh issue, in review, delivered by a run on a priced model. */
  async function locusPullRequest(title: string): Promise<{ issue: number; pr: number }> {
    const created = await h.api.createIssue({ title, labels: ["locus:queued"] });
    h.fake.setScript(greetHi);
    const run = await h.run({ mode: "issue", issue: String(created.number) });
    return { issue: created.number, pr: Number(run.outputs["pr-number"]) };
  }

  const modes = [
    {
      mode: "iterate",
      on: "pr",
      says: "Locus did not address the review feedback.",
      again: "`/locus iterate`",
    },
    { mode: "fix-ci", on: "pr", says: "Locus did not fix the CI failure.", again: "`/locus fix-ci`" },
    { mode: "rebase", on: "pr", says: "Locus did not rebase this pull request.", again: "`/locus rebase`" },
    { mode: "review", on: "pr", says: "Locus did not review this pull request.", again: "`/locus review`" },
    { mode: "ask", on: "pr", says: "Locus did not answer the question.", again: "`/locus ask <question>`" },
  ] as const;

  it.each(modes)(
    "$mode on a Locus PR replies in the PR and leaves everything else as it was",
    async ({ mode, says, again }) => {
      const { issue, pr } = await locusPullRequest(`Greet for ${mode}`);
      const head = (await h.api.getPullRequest(pr))?.head.sha;
      h.fake.setScript(greetHi);
      const before = h.fake.requests.length;

      const run = await h.run({ mode, pr: String(pr), command: "Why Hi?", model: "claude-unknown-2" });

      expect(run.code).toBe(0);
      expect(run.outputs["status"]).toBe("skipped");
      expect(h.fake.requests.length).toBe(before);
      // As a reader sees it: Locus puts an invisible word joiner inside every closing keyword it publishes.
      const reply = ((await h.api.getIssue(pr))?.comments.at(-1)?.body ?? "").replaceAll("\u2060", "");
      expect(reply).toContain(says);
      expect(reply).toContain("does not know the price of model `claude-unknown-2`");
      expect(reply).toContain("agent.pricing");
      expect(reply).toContain(`then comment ${again}`);
      expect((await h.api.getPullRequest(pr))?.head.sha).toBe(head);
      expect((await h.api.getIssue(issue))?.labels).toContain("locus:in-review");
    },
  );

  it("plan on an issue replies there and posts no plan", async () => {
    const issue = await h.api.createIssue({ title: "Farewells", body: "We never say goodbye." });
    const before = h.fake.requests.length;

    const run = await h.run({
      mode: "plan",
      issue: String(issue.number),
      command: "Add farewells",
      model: "claude-unknown-2",
    });

    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const comments = (await h.api.getIssue(issue.number))?.comments ?? [];
    expect(comments.map((c) => c.body.split(" Locus does not know")[0])).toEqual([
      "Locus did not make a plan.",
    ]);
    expect(comments[0]?.body).toContain("then comment `/locus plan <goal>`");
  });

  it("ask on an issue replies there without an answer", async () => {
    const issue = await h.api.createIssue({ title: "Question", body: "" });
    const before = h.fake.requests.length;

    const run = await h.run({
      mode: "ask",
      issue: String(issue.number),
      command: "Where is the greeting built?",
      model: "claude-unknown-2",
    });

    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const comments = (await h.api.getIssue(issue.number))?.comments ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain("Locus did not answer the question.");
  });

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
