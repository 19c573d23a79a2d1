/**
 * Work never polluted, through the bundled Action: the task's commit holds the
 * file the agent wrote and nothing its commands left behind as scratch or
 * build output (a `tmp/` directory, a log), and the PR's summary names what
 * was left out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

describe("commit scope", () => {
  it("commits the agent's files and leaves its commands' scratch out, saying so", async () => {
    const issue = await h.api.createIssue({ title: "Add farewell", labels: ["locus:queued"] });
    h.fake.setScript([
      reply(call("write_file", { path: "src/farewell.js", content: "export const bye = () => 'bye';\n" })),
      reply(
        call("run_shell", { command: "mkdir -p tmp && echo scratch > tmp/notes.txt && echo ok > check.log" }),
      ),
      reply(call("finish", { summary: "Added farewell." })),
    ]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.code).toBe(0);
    const files = (await h.git(["diff", "--name-only", "origin/main", `origin/locus/issue-${issue.number}`]))
      .split("\n")
      .filter(Boolean);
    expect(files).toEqual(["src/farewell.js"]);
    const pr =
      (await h.api.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" })) ?? undefined;
    expect(pr?.body).toContain("Left out of the commit");
    expect(pr?.body).toContain("`tmp/notes.txt`");
    expect(pr?.body).toContain("`check.log`");
  });
});
