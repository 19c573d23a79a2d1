/**
 * `/locus run model=<id>` through the webhook server and the simulator (signed
 * deliveries): an allowed model reaches the dispatched run in its `command`
 * input; a model the repository does not allow, or cannot price, is one reply
 * before anything is dispatched, with the labels as they were; and a person
 * without write access cannot choose a model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comment, commentsOf, labelsOf, newIssue, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness({ config: "version: 3\nagent:\n  models: [claude-opus-4-8, claude-future-1]\n" });
});
afterAll(async () => {
  await h.close();
});

const dispatchedFor = (issue: number) => runs(h).filter((run) => run.inputs.issue === String(issue));

describe("/locus run model=<id>", () => {
  it("dispatches the run with the model in its command input", async () => {
    const issue = await newIssue(h, "Hard task");
    await comment(h, "alice", issue, "/locus run model=claude-opus-4-8");
    expect(dispatchedFor(issue).map((run) => [run.inputs.mode, run.inputs.command])).toEqual([
      ["issue", "model=claude-opus-4-8"],
    ]);
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:queued"]);
  });

  it.each([
    ["claude-opus-5", "Not started: Model `claude-opus-5` is not allowed here"],
    ["claude-future-1", "does not know the price of model `claude-future-1`"],
  ])("refuses model=%s with one reply, dispatching nothing", async (model, says) => {
    const issue = await newIssue(h, `Wants ${model}`);
    await comment(h, "alice", issue, `/locus run model=${model}`);
    expect(dispatchedFor(issue)).toEqual([]);
    const replies = (await commentsOf(h, issue)).slice(1);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain(says);
    expect(await labelsOf(h, issue)).toEqual([]);
  });

  it("does not let a person without write access choose a model", async () => {
    const issue = await newIssue(h, "Outsider's pick");
    await comment(h, "eve", issue, "/locus run model=claude-opus-4-8");
    expect(dispatchedFor(issue)).toEqual([]);
    expect((await commentsOf(h, issue)).at(-1)).toContain(
      "@eve Locus only takes work from people with write access",
    );
    expect(await labelsOf(h, issue)).toEqual([]);
  });
});
