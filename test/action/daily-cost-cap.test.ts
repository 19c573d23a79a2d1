/**
 * The daily cost cap (`agent.maxCostPerDayUsd`), through the bundled Action:
 * what was spent today is read from Locus's own status comments in the task's
 * one read; a task past the cap is not started (no failure: it stays queued, one
 * comment a day with the cap and when it resets, no model call, and the stale
 * sweep starts it on a later day), and a task under it may spend only what
 * remains, stopping at that limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { renderStatusComment, STATUS_MARKER } from "../../lib/status/status-comment.ts";
import { OWNER, PROJECT_FILES, REPO, startHarness, type Harness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

const CAP_USD = 0.05;
let h: Harness;
let spentIssue: number;
let spentComment: number;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    ".github/locus.yml": `version: 3\nagent:\n  maxCostPerDayUsd: ${CAP_USD}\n`,
    // The stale sweep lists this workflow's runs and dispatches it as the app would.
    ...callerWorkflowFiles(),
  });
  h.repo.collaborator("alice", "write");
  // An issue Locus worked on earlier today, and its status comment recording the spend.
  spentIssue = (
    await h.api.createIssue({ title: "Earlier task", labels: ["locus:in-review", "agent:managed"] })
  ).number;
  spentComment = (await h.api.createComment(spentIssue, statusBody(0))).id;
}, 60_000);

afterAll(async () => {
  await h.close();
});

function statusBody(usd: number): string {
  const day = new Date().toISOString().slice(0, 10);
  const state = { deliveries: [], attempts: 1, daySpend: { day, usd } };
  return `<!-- ${STATUS_MARKER} -->\n${renderStatusComment({ headline: "Done." }, state)}`;
}

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

describe("daily cost cap", () => {
  it("does not start a task once today's spend reached the cap: no failure, said once a day, no model call", async () => {
    await h.api.updateComment(spentComment, statusBody(CAP_USD));
    const issue = await h.api.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) });
    // The sweep and the next dispatch the same day: nothing more is said, nothing starts.
    const sweep = await h.run({ mode: "stale" });
    const again = await h.run({ mode: "issue", issue: String(issue.number) });

    for (const finished of [run, sweep, again]) expect(finished.code, finished.stdout).toBe(0);
    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toEqual(["locus:queued"]);
    const refusals = after?.comments.filter((c) => c.body.startsWith("Locus did not start this task:")) ?? [];
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.body).toContain("daily cost cap of $0.0500");
    expect(refusals[0]?.body).toContain("resets at 00:00 UTC");
    expect(after?.comments.some((c) => c.body.includes("could not finish"))).toBe(false);
    const status = after?.comments.find((c) => c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))?.body ?? "";
    expect(status).toContain('"attempts":0');
    expect(await h.git(["ls-remote", "--heads", "origin", `locus/issue-${issue.number}`])).toBe("");
    const repository = h.sim.store.repos.get(`${OWNER}/${REPO}`);
    expect(repository).toBeDefined();
    expect(repository?.runs.filter((r) => r.inputs["issue"] === String(issue.number))).toEqual([]);
  });

  it("the stale sweep starts a task the cap held back on an earlier day", async () => {
    const issue = await h.api.createIssue({ title: "Greet later", labels: ["locus:queued"] });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await h.api.createComment(
      issue.number,
      `<!-- ${STATUS_MARKER} -->\n${renderStatusComment({ headline: "Not started." }, { deliveries: [], attempts: 0, capRefused: yesterday })}`,
    );

    const sweep = await h.run({ mode: "stale" });

    expect(sweep.code).toBe(0);
    const dispatched = h.sim.store.repos
      .get(`${OWNER}/${REPO}`)
      ?.runs.filter((r) => r.inputs["issue"] === String(issue.number));
    expect(dispatched?.map((r) => r.inputs["delivery"])).toEqual([expect.stringMatching(/^stale-\d+-\d+$/)]);
  });

  it("lets a task spend only what remains of the cap, ignoring spend claimed in comments Locus did not write", async () => {
    await h.api.updateComment(spentComment, statusBody(CAP_USD - 0.0001));
    // Someone else's comment in the status comment's shape must not count (it would block Locus).
    const other = await h.as("alice").createIssue({ title: "Noise", labels: ["agent:managed"] });
    await h.as("alice").createComment(other.number, statusBody(1000));
    const issue = await h.api.createIssue({
      title: "Greet kindly",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    h.fake.setScript(greetHi);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("failed");
    // One turn was allowed (the budget was not yet spent), and it used up what remained.
    expect(h.fake.requests.length).toBe(before + 1);
    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toContain("locus:failed");
    const failure = after?.comments.find((c) => c.body.startsWith("**Locus could not finish this task:**"));
    expect(failure?.body).toContain("what remained of the daily cost cap of $0.0500");
    const status = after?.comments.find((c) => c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))?.body ?? "";
    expect(status).toMatch(/"daySpend":\{"day":"\d{4}-\d{2}-\d{2}","usd":0\.\d+\}/);
  });
});
