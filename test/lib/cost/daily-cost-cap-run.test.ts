/**
 * The daily cost cap (`agent.maxCostPerDayUsd`), modes `issue` and `stale` run
 * in process in a task world (test/fakes/task-world.ts): what was spent today
 * is read from Locus's own status comments in the task's one read; a task past
 * the cap is not started (no failure: it stays queued, one comment a day with
 * the cap and when it resets, no model call, and the stale sweep starts it on
 * a later day), and a task under it may spend only what remains, stopping at
 * that limit. Today is the fake's clock's day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { runStaleMode } from "../../../lib/action/modes/stale.ts";
import { renderStatusComment, STATUS_MARKER } from "../../../lib/status/status-comment.ts";
import { overallStatus, type ModeResult } from "../../../lib/task/task-report.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import type { FakeComment } from "../../fakes/github-fake-store.ts";
import { startTaskWorld, WORLD_FILES, type TaskWorld } from "../../fakes/task-world.ts";

const CAP_USD = 0.05;
let w: TaskWorld;
let spent: FakeComment;

beforeAll(async () => {
  w = await startTaskWorld({
    files: { ...WORLD_FILES, ".github/locus.yml": `version: 3\nagent:\n  maxCostPerDayUsd: ${CAP_USD}\n` },
    github: { permissions: { alice: "write" } },
  });
  // An issue Locus worked on earlier today, and its status comment recording the spend.
  const earlier = w.github.seedIssue({
    title: "Earlier task",
    author: w.github.store.self,
    labels: ["locus:in-review", "agent:managed"],
  });
  spent = w.github.seedComment(earlier.number, statusBody(0), w.github.store.self);
}, 60_000);

afterAll(async () => {
  await w.close();
});

const today = () => w.github.store.clock.now().toISOString().slice(0, 10);

function statusBody(usd: number): string {
  const state = { deliveries: [], attempts: 1, daySpend: { day: today(), usd } };
  return `<!-- ${STATUS_MARKER} -->\n${renderStatusComment({ headline: "Done." }, state)}`;
}

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

/** A mode's run that ends without a fault of Locus's own (the Action would exit 0). */
async function ran(result: Promise<ModeResult>): Promise<ModeResult> {
  const finished = await result;
  expect(finished.tasks.filter((task) => task.fault)).toEqual([]);
  return finished;
}

const commentsOn = (issue: number) => w.github.store.comments.filter((c) => c.issue === issue);
const statusOn = (issue: number) =>
  commentsOn(issue).find((c) => c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))?.body ?? "";
/** The inputs of the sweep's dispatches for `issue`. */
const dispatchedFor = (issue: number) =>
  w.github
    .callsOf("dispatchWorkflow")
    .map((args) => args[2] as Record<string, string>)
    .filter((inputs) => inputs["issue"] === String(issue));

describe("daily cost cap, in process", () => {
  it("does not start a task once today's spend reached the cap: no failure, said once a day, no model call", async () => {
    spent.body = statusBody(CAP_USD);
    const issue = await w.github.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    w.anthropic.setScript(greetHi);
    const before = w.anthropic.requests.length;

    const first = await ran(runIssueMode(await w.context(), [issue.number]));
    // The sweep and the next dispatch the same day: nothing more is said, nothing starts.
    await ran(runStaleMode(await w.context()));
    await ran(runIssueMode(await w.context(), [issue.number]));

    expect(overallStatus(first)).toBe("skipped");
    expect(w.anthropic.requests.length).toBe(before);
    expect(w.github.labelsOf(issue.number)).toEqual(["locus:queued"]);
    const refusals = commentsOn(issue.number).filter((c) =>
      c.body.startsWith("Locus did not start this task:"),
    );
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.body).toContain("daily cost cap of $0.0500");
    expect(refusals[0]?.body).toContain("resets at 00:00 UTC");
    expect(commentsOn(issue.number).some((c) => c.body.includes("could not finish"))).toBe(false);
    expect(statusOn(issue.number)).toContain('"attempts":0');
    expect(await w.git(["ls-remote", "--heads", "origin", `locus/issue-${issue.number}`])).toBe("");
    expect(dispatchedFor(issue.number)).toEqual([]);
  });

  it("the stale sweep starts a task the cap held back on an earlier day", async () => {
    const issue = await w.github.createIssue({ title: "Greet later", body: "", labels: ["locus:queued"] });
    const yesterday = new Date(w.github.store.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const state = { deliveries: [], attempts: 0, capRefused: yesterday };
    await w.github.createComment(
      issue.number,
      `<!-- ${STATUS_MARKER} -->\n${renderStatusComment({ headline: "Not started." }, state)}`,
    );

    await ran(runStaleMode(await w.context()));

    expect(dispatchedFor(issue.number).map((inputs) => inputs["delivery"])).toEqual([
      expect.stringMatching(/^stale-\d+-\d+$/),
    ]);
  });

  it("lets a task spend only what remains of the cap, ignoring spend claimed in comments Locus did not write", async () => {
    spent.body = statusBody(CAP_USD - 0.0001);
    // Someone else's comment in the status comment's shape must not count (it would block Locus).
    const other = w.github.seedIssue({ title: "Noise", author: "alice", labels: ["agent:managed"] });
    w.github.seedComment(other.number, statusBody(1000), "alice");
    const issue = await w.github.createIssue({
      title: "Greet kindly",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    w.anthropic.setScript(greetHi);
    const before = w.anthropic.requests.length;

    const result = await ran(runIssueMode(await w.context(), [issue.number]));

    expect(overallStatus(result)).toBe("failed");
    // One turn was allowed (the budget was not yet spent), and it used up what remained.
    expect(w.anthropic.requests.length).toBe(before + 1);
    expect(w.github.labelsOf(issue.number)).toContain("locus:failed");
    const failure = commentsOn(issue.number).find((c) =>
      c.body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure?.body).toContain("what remained of the daily cost cap of $0.0500");
    expect(statusOn(issue.number)).toMatch(/"daySpend":\{"day":"\d{4}-\d{2}-\d{2}","usd":0\.\d+\}/);
  });
});
