/**
 * A run with no artifact service (no ACTIONS_RESULTS_URL or runtime token in its environment), in
 * process in a task world: mode issue's real task with the session record wired as the Action wires
 * it (action/run.ts: the record wraps the agent runner and is the context's publisher, and its
 * section follows the job summary). The record stays on the runner, the summary says why it was not
 * uploaded, and the status comment links nothing. The uploads themselves, to the simulator's
 * artifact service through the bundled Action, are test/action/session-record.test.ts.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSessionRecord } from "../../../action/session-record.ts";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { STATUS_MARKER } from "../../../lib/status/status-comment.ts";
import { overallStatus } from "../../../lib/task/task-report.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, type TaskWorld } from "../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld();
}, 60_000);

afterAll(async () => {
  await w.close();
});

const statusCommentOf = (issue: number) =>
  w.github.store.comments.find((c) => c.issue === issue && c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))
    ?.body ?? "";

describe("a session record without an artifact service", { timeout: 60_000 }, () => {
  it("a run without an artifact service keeps the record on the runner and says why", async () => {
    const issue = await w.github.createIssue({
      title: "Greet once more",
      body: "Say Hi instead of Hello.",
      labels: ["locus:queued"],
    });
    w.anthropic.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("write_file", { path: "notes.txt", content: "keys: \n" })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);
    const ctx = await w.context();
    // The Actions environment of a run without the service: neither its URL nor its runtime token.
    const record = startSessionRecord({
      runner: ctx.runner,
      folder: ctx.run.worktreeRoot,
      runId: ctx.run.id,
      runUrl: ctx.run.url,
      mask: ctx.mask,
      env: {},
    });

    const result = await runIssueMode({ ...ctx, runner: record.runner, sessionRecord: record }, [
      issue.number,
    ]);
    const section = await record.finish("issue");
    const summary = `${w.summary("issue", result)}\n\n${section ?? ""}`;

    expect(overallStatus(result)).toBe("succeeded");
    // Nothing went to an artifact service: every part of the record is still a file on the runner.
    const kept = await readdir(join(ctx.run.worktreeRoot, "locus-session-record"));
    expect(kept).toContain(`locus-session-${ctx.run.id}.jsonl`);
    expect(kept).toContain(`locus-session-${ctx.run.id}-issue-${issue.number}.jsonl`);
    expect(summary).toContain("Not uploaded: this run has no artifact service");
    expect(statusCommentOf(issue.number)).not.toContain("session record");
  });
});
