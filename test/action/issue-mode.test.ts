import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { ANTHROPIC_KEY, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.repo.collaborator("dana", "write");
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function queuedIssue(title: string, body = "Please do it.", labels: string[] = []) {
  return h.api.createIssue({ title, body, labels: ["locus:queued", ...labels] });
}

describe("mode issue", () => {
  it("delivers a PR: branch, commit, body, labels and status comment", async () => {
    const issue = await queuedIssue("Greet politely", "Say Hi instead of Hello.", ["type:feature"]);
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const prNumber = Number(run.outputs["pr-number"]);
    const pr = await h.api.getPullRequest(prNumber);
    expect(pr?.head.ref).toBe(`locus/issue-${issue.number}`);
    expect(pr?.base.ref).toBe("main");
    expect(pr?.body).toContain(`Closes #${issue.number}`);
    expect(pr?.body).toContain("Greeting now says Hi.");
    expect(pr?.title).toBe(`feat: Greet politely (#${issue.number})`);
    expect(await h.show(`locus/issue-${issue.number}`, "src/greet.js")).toContain('"Hi, "');
    const log = await h.git(["log", "-1", "--format=%an <%ae>|%s", `origin/locus/issue-${issue.number}`]);
    expect(log.trim()).toBe(
      `locus[bot] <locus[bot]@users.noreply.github.com>|feat: Greet politely (#${issue.number})`,
    );

    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toContain("locus:in-review");
    expect(after?.labels).not.toContain("locus:queued");
    expect(after?.labels).not.toContain("locus:in-progress");
    const status = after?.comments.find((c) => c.body.startsWith("<!-- locus:status -->"));
    expect(status?.body).toContain(`Pull request #${prNumber}`);
    expect(status?.body).toContain('"attempts":1');
    expect((await h.api.getIssue(prNumber))?.labels).toContain("agent:managed");

    expect(run.summary).toContain("| Task | Status | PR |");
    expect(run.summary).toContain(`[#${prNumber}]`);
    expect(run.summary).toContain("Edit src/greet.js");
    expect(Number(run.outputs["output-tokens"])).toBeGreaterThan(0);
  });
});

describe("secrets", () => {
  it("never appear in logs, the summary, comments or PR bodies", async () => {
    const everything = [
      ...h.sim.store.repos
        .values()
        .flatMap((repo) => [
          ...repo.comments.map((c) => c.body),
          ...[...repo.issues.values()].map((i) => i.body ?? ""),
        ]),
    ].join("\n");
    expect(everything).not.toContain(h.token);
    expect(everything).not.toContain(ANTHROPIC_KEY);
  });
});
