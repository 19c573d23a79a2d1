/**
 * Mode `issue` through the bundled Action, for what needs the process: inputs,
 * outputs and the job summary file, the author of its commits, the refusals
 * action/run.ts makes before any mode runs, and secrets kept out of the
 * process's output. The mode's other scenarios run in process, on the task
 * world: test/lib/action/modes/issue-mode.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { ANTHROPIC_KEY, startHarness, type ActionRun, type Harness } from "./harness.ts";

let h: Harness;
const runs: ActionRun[] = [];

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function queuedIssue(title: string, body = "Please do it.", labels: string[] = []) {
  return h.api.createIssue({ title, body, labels: ["locus:queued", ...labels] });
}

async function runIssue(issue: number): Promise<ActionRun> {
  const run = await h.run({ mode: "issue", issue: String(issue) });
  runs.push(run);
  return run;
}

function statusComment(comments: readonly { body: string }[] | undefined): string {
  return comments?.find((c) => c.body.startsWith("<!-- locus:status -->"))?.body ?? "";
}

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

describe("mode issue", () => {
  it("delivers a PR: branch, commit, body, labels and status comment; a retry updates the same PR", async () => {
    const issue = await queuedIssue("Greet politely", "Say Hi instead of Hello.", ["type:feature"]);
    h.fake.setScript(greetHi);

    const run = await runIssue(issue.number);

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const prNumber = Number(run.outputs["pr-number"]);
    const pr = await h.api.getPullRequest(prNumber);
    expect(pr?.head.ref).toBe(`locus/issue-${issue.number}`);
    expect(pr?.base.ref).toBe("main");
    expect(pr?.body).toContain(`Closes #${issue.number}`);
    expect(pr?.body).toContain("Greeting now says Hi.");
    expect(pr?.body).toContain("<summary>Agent log (2 tool calls)</summary>");
    expect(pr?.title).toBe(`feat: Greet politely (#${issue.number})`);
    expect(await h.show(`locus/issue-${issue.number}`, "src/greet.js")).toContain('"Hi, "');
    // Author and committer are the app's bot with its noreply address, so GitHub links the commit to the app.
    const log = await h.git([
      "log",
      "-1",
      "--format=%an <%ae>|%cn <%ce>|%s",
      `origin/locus/issue-${issue.number}`,
    ]);
    expect(log.trim()).toBe(`${h.botAuthor}|${h.botAuthor}|feat: Greet politely (#${issue.number})`);
    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toContain("locus:in-review");
    expect(after?.labels).not.toContain("locus:queued");
    expect(after?.labels).not.toContain("locus:in-progress");
    expect(statusComment(after?.comments)).toContain(`Pull request #${prNumber} is ready for review.`);
    expect(statusComment(after?.comments)).toContain('"attempts":1');
    expect((await h.api.getIssue(prNumber))?.labels).toContain("agent:managed");
    expect(run.summary).toContain("| Task | Status | PR |");
    expect(run.summary).toContain(`[#${prNumber}]`);
    expect(run.summary).toContain("Edit src/greet.js");
    expect(Number(run.outputs["output-tokens"])).toBeGreaterThan(0);

    // A retry (re-queued by hand) finds the branch and the open PR and updates both.
    await h.api.setLabels(issue.number, ["type:feature", "locus:queued", "agent:managed"]);
    h.fake.setScript([
      reply(call("write_file", { path: "src/farewell.js", content: "export const bye = () => 'Bye';\n" })),
      reply(call("finish", { summary: "Added a farewell too." })),
    ]);
    const retry = await runIssue(issue.number);

    expect(retry.code).toBe(0);
    expect(retry.outputs["status"]).toBe("succeeded");
    expect(Number(retry.outputs["pr-number"])).toBe(prNumber);
    expect((await h.api.getPullRequest(prNumber))?.body).toContain("Added a farewell too.");
    const commits = await h.git(["log", "--format=%s", `origin/main..origin/locus/issue-${issue.number}`]);
    expect(commits.trim().split("\n")).toHaveLength(2);
    expect(statusComment((await h.api.getIssue(issue.number))?.comments)).toContain('"attempts":2');
  });

  it("refuses a hand-dispatched run from someone without write access before any model call", async () => {
    h.repo.collaborator("rita", "read");
    const issue = await queuedIssue("Sneaky");
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) }, { GITHUB_ACTOR: "rita" });
    runs.push(run);

    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("Refused: @rita has read permission");
    expect(h.fake.requests.length).toBe(before);
    expect((await h.api.getIssue(issue.number))?.labels).toEqual(["locus:queued"]);
  });

  it("refuses a run started by a bot that is neither Locus nor listed in bots.allowed", async () => {
    const issue = await queuedIssue("Bot asked");
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) }, { GITHUB_ACTOR: "helper[bot]" });
    runs.push(run);

    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("Refused: the run was started by helper[bot]");
    expect(h.fake.requests.length).toBe(before);
  });
});

describe("secrets", () => {
  it("never appear in logs, the summary, comments, PR bodies or the model's view", () => {
    const texts: string[] = [];
    for (const run of runs) {
      const lines = `${run.stdout}\n${run.stderr}`
        .split("\n")
        .filter((line) => !line.startsWith("::add-mask::"));
      texts.push(...lines, run.summary);
    }
    for (const repo of h.sim.store.repos.values()) {
      texts.push(...repo.comments.map((c) => c.body), ...[...repo.issues.values()].map((i) => i.body ?? ""));
    }
    texts.push(...h.fake.requests.map((request) => JSON.stringify(request.body)));
    const everything = texts.join("\n");
    expect(runs.length).toBeGreaterThan(3);
    expect(everything).not.toContain(h.token);
    expect(everything).not.toContain(ANTHROPIC_KEY);
  });
});
