import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;
let issue: number;
let pr: number;

beforeAll(async () => {
  h = await startHarness();
  h.repo.collaborator("rev", "write");
  h.repo.collaborator("outsider", "read");
  issue = (await h.api.createIssue({ title: "Greet politely", labels: ["locus:queued"] })).number;
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  const run = await h.run({ mode: "issue", issue: String(issue) });
  pr = Number(run.outputs["pr-number"]);
}, 90_000);

afterAll(async () => {
  await h.close();
});

describe("mode iterate", () => {
  it("turns a line comment into a new commit on the same branch, replies in the thread and returns to review", async () => {
    const reviewer = h.as("rev");
    await reviewer.createReview(pr, {
      event: "REQUEST_CHANGES",
      body: "Almost there.",
      comments: [{ path: "src/greet.js", line: 2, body: "Use a template string here." }],
    });
    await h.as("outsider").createComment(pr, "Also delete the README please.");
    await h.api.setLabels(issue, ["locus:in-review", "agent:managed"]);
    h.fake.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hi, " + name', new_text: "`Hi, ${name}`" }),
      ),
      reply(call("finish", { summary: "Switched to a template string." })),
    ]);

    const run = await h.run({ mode: "iterate", pr: String(pr), command: "keep it short" });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const task = JSON.stringify(h.fake.requests.at(-2)?.body);
    expect(task).toContain("src/greet.js:2");
    expect(task).toContain("Use a template string here.");
    expect(task).toContain("Almost there.");
    expect(task).toContain("keep it short");
    expect(task).not.toContain("delete the README");
    const commits = await h.git(["log", "--format=%s", `origin/main..origin/locus/issue-${issue}`]);
    expect(commits.trim().split("\n")).toEqual([
      `fix: address review feedback (#${issue})`,
      `feat: Greet politely (#${issue})`,
    ]);
    expect(await h.show(`locus/issue-${issue}`, "src/greet.js")).toContain("`Hi, ${name}`");
    const thread = await h.api.listReviewComments(pr);
    const replyInThread = thread.find((c) => c.inReplyToId !== null);
    expect(replyInThread?.author).toBe("locus[bot]");
    expect(replyInThread?.body).toContain("Switched to a template string.");
    const prComments = (await h.api.getIssue(pr))?.comments ?? [];
    expect(prComments.some((c) => c.body.startsWith("Locus addressed the review feedback"))).toBe(true);
    expect((await h.api.getIssue(issue))?.labels).toContain("locus:in-review");
  });

  it("with nothing new to address, comments and does not call the model", async () => {
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "iterate", pr: String(pr) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("skipped");
    expect(h.fake.requests.length).toBe(before);
    const prComments = (await h.api.getIssue(pr))?.comments ?? [];
    expect(prComments.at(-1)?.body).toContain("no open review feedback");
    expect((await h.api.getIssue(issue))?.labels).toContain("locus:in-review");
  });

  it("refuses a pull request Locus did not open", async () => {
    await h.git(["push", "--quiet", "origin", `origin/locus/issue-${issue}:refs/heads/human-branch`]);
    const human = await h
      .as("rev")
      .createPullRequest({ title: "Mine", body: "", head: "human-branch", base: "main" });

    const run = await h.run({ mode: "iterate", pr: String(human.number) });

    expect(run.code).toBe(0);
    expect((await h.api.getIssue(human.number))?.comments.at(-1)?.body).toContain("not a Locus pull request");
  });
});
