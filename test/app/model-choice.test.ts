/**
 * `/locus run model=<id>` through the real app with signed deliveries: a writer's allowed model
 * reaches the dispatch in the `command` input; a model the config does not allow, or one from a
 * person without write access, is one reply and no dispatch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { comment, commentsOf, labelsOf, newIssue, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness({
    files: {
      "README.md": "# demo\n",
      ...callerWorkflowFiles(),
      ".github/locus.yml": "version: 3\nagent:\n  model: claude-sonnet-4-6\n  models: [claude-opus-4-8]\n",
    },
  });
});
afterAll(async () => {
  await h.close();
});

const dispatchesFor = (issue: number) => runs(h).filter((run) => run.inputs.issue === String(issue));

describe("/locus run model=<id>", () => {
  it("dispatches a writer's allowed model in the command input", async () => {
    const issue = await newIssue(h, "Hard task");
    await comment(h, "alice", issue, "/locus run model=claude-opus-4-8");
    expect(dispatchesFor(issue).map((run) => [run.inputs.mode, run.inputs.command])).toEqual([
      ["issue", "model=claude-opus-4-8"],
    ]);
    expect(await labelsOf(h, issue)).toContain("locus:queued");
  });

  it("refuses a model the config does not allow, in one reply, and dispatches nothing", async () => {
    const issue = await newIssue(h, "Expensive task");
    await comment(h, "alice", issue, "/locus run model=claude-fable-5");
    expect(dispatchesFor(issue)).toEqual([]);
    const replies = (await commentsOf(h, issue)).slice(1);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain("Model `claude-fable-5` is not allowed here");
    expect(replies[0]).toContain("agent.models");
    expect(await labelsOf(h, issue)).not.toContain("locus:queued");
  });

  it("takes no model, or work, from a person without write access", async () => {
    const issue = await newIssue(h, "Someone else's task");
    await comment(h, "eve", issue, "/locus run model=claude-opus-4-8");
    expect(dispatchesFor(issue)).toEqual([]);
    expect((await commentsOf(h, issue)).at(-1)).toContain(
      "Locus only takes work from people with write access",
    );
  });
});
