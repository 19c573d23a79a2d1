/**
 * Costs never silently vanish, run in process on the typed fake gateway: a
 * task on a model with no known price is not started (its status cleared so
 * nothing retries it, a comment saying how to give the price), and every
 * other mode that calls a model refuses it as it starts, with one reply in
 * the thread that asked. The agent runner and checkout here fail the test if
 * reached. The runs on a price from `agent.pricing` are
 * test/lib/cost/config-pricing.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runMode } from "../../../lib/action/run-mode.ts";
import { loadConfig, type LocusConfig } from "../../../lib/config/index.ts";
import type { ActionContext } from "../../../lib/task/context.ts";
import { createGitHubFake, type GitHubFake } from "../../fakes/github-fake.ts";
import { fakeActionContext, refusingAgentAndCheckout } from "../../fakes/action-context.ts";

function pricedConfig(): LocusConfig {
  const loaded = loadConfig(
    "version: 3\nagent:\n  pricing:\n    claude-future-1: { input: 3, output: 15 }\n",
  );
  if (!loaded.ok) throw new Error("test config did not load");
  return loaded.config;
}

/** Gateway calls that write something (every member that is not a read). */
const writes = (fake: GitHubFake) =>
  fake.calls.map((call) => call.member).filter((member) => !/^(get|read|list|find|search)/.test(member));

/** A context on `model` with the pricing config, whose agent runner and checkout must not be reached. */
function contextOn(fake: GitHubFake, model: string): ActionContext & { readonly reached: string[] } {
  return refusingAgentAndCheckout({ ...fakeActionContext(fake, { config: pricedConfig() }), model });
}

/** A Locus PR in review for a fresh issue, as a run on a priced model left it. */
function locusPullRequest(fake: GitHubFake, title: string): { issue: number; pr: number } {
  const issue = fake.seedIssue({ title, labels: ["locus:in-review", "agent:managed"] }).number;
  const pr = fake.seedIssue({
    title,
    author: fake.store.self,
    labels: ["agent:managed"],
    pull: {
      head: { ref: `locus/issue-${issue}`, sha: "1".repeat(40) },
      base: { ref: "main" },
      merged: false,
      draft: false,
      diff: "",
      reviews: [],
      threads: [],
      fromFork: false,
    },
  }).number;
  return { issue, pr };
}

describe("model pricing, in process", () => {
  it("refuses a task on a model with no known price, before any model call", async () => {
    const fake = createGitHubFake({ permissions: { alice: "write" } });
    const issue = fake.seedIssue({ title: "Greet politely", labels: ["locus:queued"] }).number;
    const ctx = contextOn(fake, "claude-unknown-2");

    const result = await runMode(ctx, { mode: "issue", issues: [issue] });

    expect(result.tasks.map((task) => task.status)).toEqual(["skipped"]);
    expect(ctx.reached).toEqual([]);
    expect(fake.labelsOf(issue)).toEqual(["agent:managed"]);
    const comments = (await fake.getIssue(issue))?.comments ?? [];
    const refusal = comments.find((c) => c.body.startsWith("Locus did not start this task."));
    expect(refusal?.body).toContain("does not know the price of model `claude-unknown-2`");
    expect(refusal?.body).toContain("agent.pricing");
  });
});

describe("an unpriced model in the other modes, in process", () => {
  const modes = [
    {
      mode: "iterate",
      says: "Locus did not address the review feedback.",
      again: "`/locus iterate`",
    },
    { mode: "fix-ci", says: "Locus did not fix the CI failure.", again: "`/locus fix-ci`" },
    { mode: "rebase", says: "Locus did not rebase this pull request.", again: "`/locus rebase`" },
    { mode: "review", says: "Locus did not review this pull request.", again: "`/locus review`" },
    { mode: "ask", says: "Locus did not answer the question.", again: "`/locus ask <question>`" },
  ] as const;

  it.each(modes)(
    "$mode on a Locus PR replies in the PR and leaves everything else as it was",
    async ({ mode, says, again }) => {
      const fake = createGitHubFake({ permissions: { alice: "write" } });
      const { issue, pr } = locusPullRequest(fake, `Greet for ${mode}`);
      const ctx = { ...contextOn(fake, "claude-unknown-2"), command: "Why Hi?" };

      const result = await runMode(ctx, { mode, pr });

      expect(result.tasks.map((task) => task.status)).toEqual(["skipped"]);
      expect(ctx.reached).toEqual([]);
      // As a reader sees it: Locus puts an invisible word joiner inside every closing keyword it publishes.
      const reply = ((await fake.getIssue(pr))?.comments.at(-1)?.body ?? "").replaceAll("\u2060", "");
      expect(reply).toContain(says);
      expect(reply).toContain("does not know the price of model `claude-unknown-2`");
      expect(reply).toContain("agent.pricing");
      expect(reply).toContain(`then comment ${again}`);
      // The one reply is all it wrote: the PR's head, its labels and the issue's status are as they were.
      expect(writes(fake)).toEqual(["createComment"]);
      expect(fake.store.issues.get(pr)?.pull?.head.sha).toBe("1".repeat(40));
      expect(fake.labelsOf(issue)).toContain("locus:in-review");
    },
  );

  it("plan on an issue replies there and posts no plan", async () => {
    const fake = createGitHubFake({ permissions: { alice: "write" } });
    const issue = fake.seedIssue({ title: "Farewells", body: "We never say goodbye." }).number;
    const ctx = { ...contextOn(fake, "claude-unknown-2"), command: "Add farewells" };

    const result = await runMode(ctx, { mode: "plan", issue });

    expect(result.tasks.map((task) => task.status)).toEqual(["skipped"]);
    expect(ctx.reached).toEqual([]);
    const comments = (await fake.getIssue(issue))?.comments ?? [];
    expect(comments.map((c) => c.body.split(" Locus does not know")[0])).toEqual([
      "Locus did not make a plan.",
    ]);
    expect(comments[0]?.body).toContain("then comment `/locus plan <goal>`");
  });

  it("ask on an issue replies there without an answer", async () => {
    const fake = createGitHubFake({ permissions: { alice: "write" } });
    const issue = fake.seedIssue({ title: "Question", body: "" }).number;
    const ctx = { ...contextOn(fake, "claude-unknown-2"), command: "Where is the greeting built?" };

    const result = await runMode(ctx, { mode: "ask", issue });

    expect(result.tasks.map((task) => task.status)).toEqual(["skipped"]);
    expect(ctx.reached).toEqual([]);
    const comments = (await fake.getIssue(issue))?.comments ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain("Locus did not answer the question.");
  });
});
