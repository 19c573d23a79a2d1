/**
 * The status comment while a task runs, mode `issue` run in process in a task
 * world (test/fakes/task-world.ts): every text the comment held, read from the
 * typed fake's edit history, shows the tool the agent is running and ends on
 * the finished or failed state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { overallStatus, type ModeResult } from "../../../lib/task/task-report.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, type TaskWorld } from "../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld();
}, 60_000);

afterAll(async () => {
  await w.close();
});

function statusComment(issue: number) {
  return w.github.store.comments.find((c) => c.issue === issue && c.body.startsWith("<!-- locus:status -->"));
}

/** Every headline the issue's status comment had, in order. */
function statusHistory(issue: number): string[] {
  const comment = statusComment(issue);
  if (!comment) return [];
  const bodies = comment.revisions.length > 0 ? comment.revisions.map((r) => r.body ?? "") : [comment.body];
  return bodies.map((body) => /\*\*Locus:\*\* (.*)/.exec(body)?.[1] ?? "");
}

async function runTask(issue: number): Promise<ModeResult> {
  const result = await runIssueMode(await w.context(), [issue]);
  expect(result.tasks.some((task) => task.fault)).toBe(false);
  expect(w.log.lines.filter((line) => line.startsWith("error:"))).toEqual([]);
  return result;
}

describe("the status comment during a task, in process", () => {
  it("shows the tool the agent is running while it works, and ends on the finished state", async () => {
    const issue = await w.github.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    w.anthropic.setScript([
      reply(call("run_shell", { command: "node --version" })),
      reply(call("read_file", { path: "src/greet.js" })),
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);

    const result = await runTask(issue.number);

    expect(overallStatus(result)).toBe("succeeded");
    const pr = result.tasks.find((task) => task.pr)?.pr?.number;
    const history = statusHistory(issue.number);
    expect(history.slice(0, 2)).toEqual([
      "Working — getting started.",
      "Working — running `node --version` (turn 1)",
    ]);
    // Later tools are shown only when the throttle's interval has passed: never on the fake's still clock.
    for (const middle of history.slice(2, -1)) expect(middle).toMatch(/^Working — \w.* \(turn [2-4]\)$/);
    expect(history.at(-1)).toBe(`Pull request #${pr} is ready for review.`);
    expect(statusComment(issue.number)?.body).toContain(
      `**Locus:** Pull request #${pr} is ready for review.`,
    );
  });

  it("ends a failed task on the reason and what to do", async () => {
    const issue = await w.github.createIssue({
      title: "Shout",
      body: "Make it loud.",
      labels: ["locus:queued"],
    });
    w.anthropic.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "HELLO, " })),
      { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "broken" } } },
    ]);

    const result = await runTask(issue.number);

    expect(overallStatus(result)).toBe("failed");
    const history = statusHistory(issue.number);
    expect(history.slice(0, 2)).toEqual([
      "Working — getting started.",
      "Working — editing `src/greet.js` (turn 1)",
    ]);
    const body = statusComment(issue.number)?.body ?? "";
    // The detail line is published as untrusted text: the word "fix" carries an invisible joiner.
    expect(body).toMatch(/\*\*Locus:\*\* Failed: .*broken/);
    expect(body).toContain(
      `- **What to do:** the work so far is saved on \`locus/wip/issue-${issue.number}\`; f\u2060ix what stopped it if it needs a person, then comment \`/locus run\` to continue from there.`,
    );
    expect(history.at(-1)).toMatch(/^Failed: /);
  });
});
