/**
 * Costs never silently vanish, the modes run in process in a task world
 * (test/fakes/task-world.ts): a price given in `agent.pricing` is used for the
 * cost and its limits, for a coding task and for a mode that only answers.
 * The run's model is the one the Action's `model` input names. The refusals
 * of a model with no known price are test/lib/task/refuse-unpriced-mode.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAskMode } from "../../../lib/action/modes/ask.ts";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import type { ActionContext } from "../../../lib/task/context.ts";
import { overallStatus } from "../../../lib/task/task-report.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, WORLD_FILES, type TaskWorld } from "../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld({
    files: {
      ...WORLD_FILES,
      ".github/locus.yml": "version: 3\nagent:\n  pricing:\n    claude-future-1: { input: 3, output: 15 }\n",
    },
  });
}, 60_000);

afterAll(async () => {
  await w.close();
});

/** One run on the model config prices and Locus does not list, as the `model` input chooses it. */
async function onFutureModel(command = ""): Promise<ActionContext> {
  return { ...(await w.context({ command })), model: "claude-future-1" };
}

describe("model pricing, in process", () => {
  it("uses the price config gives for a model Locus does not list", async () => {
    const issue = await w.github.createIssue({ title: "Greet kindly", body: "", labels: ["locus:queued"] });
    w.anthropic.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);
    const before = w.anthropic.requests.length;

    const result = await runIssueMode(await onFutureModel(), [issue.number]);

    expect(result.tasks.some((task) => task.fault)).toBe(false);
    expect(overallStatus(result)).toBe("succeeded");
    expect(w.anthropic.requests.slice(before).map((r) => (r.body as { model?: unknown }).model)).toEqual([
      "claude-future-1",
      "claude-future-1",
    ]);
    expect(result.tasks.reduce((total, task) => total + task.costUsd, 0)).toBeGreaterThan(0);
    expect(w.github.labelsOf(issue.number)).toContain("locus:in-review");
  });

  it("a priced model (here from agent.pricing) still runs the other modes", async () => {
    const issue = await w.github.createIssue({ title: "Question two", body: "" });
    w.anthropic.setScript([reply(call("finish", { summary: "In `src/greet.js:2`." }))]);
    const before = w.anthropic.requests.length;

    const result = await runAskMode(await onFutureModel("Where is the greeting built?"), {
      issue: issue.number,
    });

    expect(overallStatus(result)).toBe("succeeded");
    expect(w.anthropic.requests.length).toBe(before + 1);
  });
});
