/**
 * `/locus run model=<id>`, mode `issue` run in process in a task world
 * (test/fakes/task-world.ts) with the command read as action/run.ts reads it
 * (lib/commands/model-option.ts): the chosen model
 * reaches the model API and the status comment names it; a model
 * `agent.models` does not list, or one with no price, is refused before any
 * model call (the app refuses it before dispatching; this is the Action's own
 * check, for a run dispatched by hand). The Action refusing a hand-dispatched
 * run by someone without write access (its exit code and what it prints),
 * and `/locus iterate model=<id>` (the typed fake does not model a pull
 * request's feedback read yet), stay with the bundle in
 * test/action/per-command-model.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../../lib/action/modes/issue.ts";
import { modelFromCommand } from "../../../../lib/commands/model-option.ts";
import type { ActionContext } from "../../../../lib/task/context.ts";
import { overallStatus } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, WORLD_FILES, type TaskWorld } from "../../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld({
    files: {
      ...WORLD_FILES,
      ".github/locus.yml": "version: 3\nagent:\n  models: [claude-opus-4-8, claude-future-1]\n",
    },
  });
}, 60_000);

afterAll(async () => {
  await w.close();
});

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

/** One run's context with its `command` input read as action/run.ts reads it. */
async function commanded(command: string): Promise<ActionContext> {
  const ctx = await w.context();
  const chosen = modelFromCommand("issue", command);
  return {
    ...ctx,
    model: chosen.model ?? ctx.model,
    ...(chosen.model !== undefined ? { modelChosen: true } : {}),
    command: chosen.command,
  };
}

/** Every text Locus's status comment on `issue` has held, oldest first. */
function statusRevisions(issue: number): string[] {
  const status = w.github.store.comments.find(
    (c) => c.issue === issue && c.body.startsWith("<!-- locus:status -->"),
  );
  if (!status) return [];
  return status.revisions.length > 0 ? status.revisions.map((edit) => edit.body ?? "") : [status.body];
}

function modelsAsked(from: number): string[] {
  return w.anthropic.requests.slice(from).map((r) => String((r.body as { model?: unknown }).model));
}

function refusalOn(issue: number): string | undefined {
  return w.github.store.comments
    .filter((c) => c.issue === issue)
    .map((c) => c.body)
    .find((body) => body.startsWith("Locus did not start this task."));
}

describe("model=<id> on /locus run, in process", () => {
  it("runs the task on the chosen model and the status comment names it", async () => {
    const issue = await w.github.createIssue({ title: "Greet politely", body: "", labels: ["locus:queued"] });
    w.anthropic.setScript(greetHi);
    const before = w.anthropic.requests.length;

    const result = await runIssueMode(await commanded("model=claude-opus-4-8"), [issue.number]);

    expect(overallStatus(result)).toBe("succeeded");
    expect(modelsAsked(before)).toEqual(["claude-opus-4-8", "claude-opus-4-8"]);
    expect(statusRevisions(issue.number).some((body) => body.includes("`claude-opus-4-8`"))).toBe(true);
  });

  it("refuses a model agent.models does not list, before any model call", async () => {
    const issue = await w.github.createIssue({ title: "Greet grandly", body: "", labels: ["locus:queued"] });
    w.anthropic.setScript(greetHi);
    const before = w.anthropic.requests.length;

    const result = await runIssueMode(await commanded("model=claude-opus-5"), [issue.number]);

    expect(overallStatus(result)).toBe("skipped");
    expect(w.anthropic.requests.length).toBe(before);
    const refusal = refusalOn(issue.number);
    expect(refusal).toContain("Model `claude-opus-5` is not allowed here");
    expect(refusal).toContain("`agent.models`");
    // Like an unpriced model: the status is cleared so nothing retries it until a person acts.
    expect(w.github.labelsOf(issue.number)).toEqual(["agent:managed"]);
  });

  it("refuses a listed model with no price, before any model call", async () => {
    const issue = await w.github.createIssue({
      title: "Greet futuristically",
      body: "",
      labels: ["locus:queued"],
    });
    w.anthropic.setScript(greetHi);
    const before = w.anthropic.requests.length;

    const result = await runIssueMode(await commanded("model=claude-future-1"), [issue.number]);

    expect(overallStatus(result)).toBe("skipped");
    expect(w.anthropic.requests.length).toBe(before);
    expect(refusalOn(issue.number)).toContain("does not know the price of model `claude-future-1`");
  });
});
