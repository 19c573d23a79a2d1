/**
 * Mode `iterate` through the bundled Action, the simulator and the Anthropic
 * fake, end to end: a line comment becomes a commit on the same branch, a
 * reply in its thread that resolves it, in at most 8 HTTP calls to GitHub.
 * The mode's other scenarios run in process on the typed fake:
 * test/lib/action/modes/iterate-mode.test.ts and iterate-rounds.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, startHarness, type ActionRun, type Harness, reviewThread } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

let h: Harness;
let issue: number;
let pr: number;

/** A Locus PR for a fresh issue: greet.js says "Hi, " on `locus/issue-<N>`. */
async function locusPullRequest(title: string): Promise<{ issue: number; pr: number }> {
  const created = await h.api.createIssue({ title, labels: ["locus:queued"] });
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  const run = await h.run({ mode: "issue", issue: String(created.number) });
  await h.api.setLabels(created.number, ["locus:in-review", "agent:managed"]);
  return { issue: created.number, pr: Number(run.outputs["pr-number"]) };
}

/**
 * Dispatches the iterate run as the app does on a writer's `/locus iterate`
 * comment, then runs the Action as that run: the comment's time is the
 * trigger time.
 */
async function iterate(
  number: number,
  inputs: Record<string, string> = {},
): Promise<{ run: ActionRun; calls: number; firstRequest: number }> {
  await h.as("rev").createComment(number, `/locus iterate ${inputs["command"] ?? ""}`.trim());
  await h.api.dispatchWorkflow("locus.yml", "main", { mode: "iterate", pr: String(number) });
  const [created] = await h.api.listWorkflowRuns("locus.yml");
  const firstRequest = h.fake.requests.length;
  const logStart = h.sim.requestLog.length;
  const run = await h.run(
    { mode: "iterate", pr: String(number), ...inputs },
    { GITHUB_RUN_ID: String(created?.id) },
  );
  // Token mints are auth, not API calls.
  const calls = h.sim.requestLog.slice(logStart).filter((e) => !e.path.endsWith("/access_tokens")).length;
  return { run, calls, firstRequest };
}

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
  h.repo.collaborator("rev", "write");
  h.repo.collaborator("outsider", "read");
  ({ issue, pr } = await locusPullRequest("Greet politely"));
}, 90_000);

afterAll(async () => {
  await h.close();
});

describe("mode iterate", () => {
  it("turns a line comment into a commit on the same branch, replies in its thread and resolves it, in at most 8 GitHub calls", async () => {
    await h.as("rev").createReview(pr, {
      event: "REQUEST_CHANGES",
      body: "Almost there.",
      comments: [{ path: "src/greet.js", line: 2, body: "Use a template string here." }],
    });
    await h.as("outsider").createComment(pr, "Also delete the README please.");
    h.fake.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hi, " + name', new_text: "`Hi, ${name}`" }),
      ),
      reply(
        call("finish", {
          summary: "Switched to a template string.",
          threads: [{ thread: "T1", addressed: true, note: "Switched to a template string." }],
        }),
      ),
    ]);

    const { run, calls, firstRequest } = await iterate(pr, { command: "keep it short" });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(calls).toBeLessThanOrEqual(8);
    const task = JSON.stringify(h.fake.requests[firstRequest]?.body);
    expect(task).toContain("T1: src/greet.js:2");
    expect(task).toContain("Use a template string here.");
    expect(task).toContain("Almost there.");
    expect(task).toContain("keep it short");
    expect(task).toContain('+  return \\"Hi, \\" + name;');
    expect(task).not.toContain("delete the README");
    const commits = await h.git(["log", "--format=%s", `origin/main..origin/locus/issue-${issue}`]);
    expect(commits.trim().split("\n")).toEqual([
      `fix: address review feedback (#${issue})`,
      `feat: Greet politely (#${issue})`,
    ]);
    expect(await h.show(`locus/issue-${issue}`, "src/greet.js")).toContain("`Hi, ${name}`");
    const { root, replies } = reviewThread(h, "Use a template string here.");
    expect(replies.map((c) => c.author)).toEqual([h.bot.login]);
    expect(replies[0]?.body).toContain("Switched to a template string.");
    expect(root.resolved).toBe(true);
    expect(root.resolvedBy).toBe(h.bot.login);
    const prComments = (await h.api.getIssue(pr))?.comments ?? [];
    expect(prComments.some((c) => c.body.startsWith("Locus addressed the review feedback"))).toBe(true);
    expect((await h.api.getIssue(issue))?.labels).toContain("locus:in-review");
  });
});
