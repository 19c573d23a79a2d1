/**
 * Verified commits, through the bundled Action with the workspace's origin on the simulator's smart
 * HTTP (where GitHub's push rules apply). A ruleset requiring signed commits refuses Locus's plain
 * push: the task fails, its comment names GitHub's rule and `commit.via: api`, and says the wip
 * branch was refused as well. With `commit.via: api` the same task delivers its PR, and every
 * commit on its branch is one GitHub made and marks verified.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { configForThisMachine } from "../needs-bubblewrap.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() }, { httpRemote: true });
  h.repo.repo.rulesets = [
    {
      name: "Signed commits everywhere",
      enforcement: "active",
      conditions: { ref_name: { include: ["~ALL"], exclude: [] } },
      rules: [{ type: "required_signatures" }],
    },
  ];
}, 60_000);

afterAll(async () => {
  await h.close();
});

function addFarewell(): void {
  h.fake.setScript([
    reply(call("write_file", { path: "src/farewell.js", content: "export const bye = () => 'bye';\n" })),
    reply(call("finish", { summary: "Added farewell." })),
  ]);
}

/** Commits `.github/locus.yml` to main as a person would (the local push meets no ruleset). */
async function configure(text: string): Promise<void> {
  await h.git(["checkout", "--quiet", "-B", "main", "origin/main"]);
  await mkdir(join(h.scratch, ".github"), { recursive: true });
  await writeFile(join(h.scratch, ".github/locus.yml"), configForThisMachine(text));
  await h.git(["add", ".github/locus.yml"]);
  await h.git(["commit", "--quiet", "--allow-empty", "-m", "chore: Locus config"]);
  await h.git(["push", "--quiet", "origin", "HEAD:main"]);
}

describe("verified commits", () => {
  it("a signatures ruleset refuses the plain push, naming the rule and commit.via: api; with it the task delivers verified commits", async () => {
    const issue = await h.api.createIssue({ title: "Add farewell", labels: ["locus:queued"] });
    addFarewell();

    const refused = await h.run({ mode: "issue", issue: String(issue.number) });

    const read = await h.api.getIssue(issue.number);
    expect(read?.labels).toContain("locus:failed");
    const failure = read?.comments.find((c) => c.body.startsWith("**Locus could not finish this task:**"));
    expect(failure?.body).toContain("**GitHub refused the push** to `refs/heads/locus/issue-");
    expect(failure?.body).toContain("- Commits must have verified signatures.");
    expect(failure?.body).toContain("set `commit.via: api` in `.github/locus.yml`");
    expect(failure?.body).toContain("The same rules refused the work-in-progress branch");
    expect(refused.stdout).toContain("GH013");

    await configure("version: 3\ncommit:\n  via: api\n");
    await h.api.setLabels(issue.number, ["locus:queued"]);
    addFarewell();

    const delivered = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(delivered.code).toBe(0);
    const pr = await h.api.findPullRequestByHead(`locus/issue-${issue.number}`);
    expect(pr).not.toBeNull();
    expect(await h.show(`locus/issue-${issue.number}`, "src/farewell.js")).toBe(
      "export const bye = () => 'bye';\n",
    );
    const commits = await h.git(["rev-list", `origin/main..origin/locus/issue-${issue.number}`]);
    const shas = commits.split("\n").filter(Boolean);
    expect(shas.length).toBeGreaterThan(0);
    for (const sha of shas) expect(h.repo.repo.verifiedCommits?.has(sha)).toBe(true);
  });

  it("an iterate round: a plain push is refused naming the rule; with commit.via: api it appends a verified commit", async () => {
    h.repo.collaborator("rev", "write");
    await configure("version: 3\ncommit:\n  via: api\n");
    const issue = await h.api.createIssue({ title: "Add greeting", labels: ["locus:queued"] });
    h.fake.setScript([
      reply(call("write_file", { path: "src/hello.js", content: "export const hi = () => 'hi';\n" })),
      reply(call("finish", { summary: "Added hello." })),
    ]);
    const pr = Number((await h.run({ mode: "issue", issue: String(issue.number) })).outputs["pr-number"]);
    const branch = `locus/issue-${issue.number}`;
    const before = (await h.git(["rev-parse", `origin/${branch}`])).trim();

    const iterate = async () => {
      await h.as("rev").createReview(pr, {
        event: "COMMENT",
        body: "",
        comments: [{ path: "src/hello.js", line: 1, body: "Say it twice." }],
      });
      await h.as("rev").createComment(pr, "/locus iterate");
      await h.api.dispatchWorkflow("locus.yml", "main", { mode: "iterate", pr: String(pr) });
      const [created] = await h.api.listWorkflowRuns("locus.yml");
      h.fake.setScript([
        reply(call("write_file", { path: "src/hello.js", content: "export const hi = () => 'hi hi';\n" })),
        reply(call("finish", { summary: "Says it twice." })),
      ]);
      return h.run({ mode: "iterate", pr: String(pr) }, { GITHUB_RUN_ID: String(created?.id) });
    };

    await configure("version: 3\n");
    await iterate();
    const refusal = (await h.api.listIssueComments(pr)).find((c) =>
      c.body.includes("**GitHub refused the push**"),
    );
    expect(refusal?.body).toContain("- Commits must have verified signatures.");
    expect(refusal?.body).toContain("set `commit.via: api`");
    expect((await h.git(["rev-parse", `origin/${branch}`])).trim()).toBe(before);

    await configure("version: 3\ncommit:\n  via: api\n");
    // The refused round marked the task failed; a writer puts it back in review.
    await h.api.setLabels(issue.number, ["locus:in-review", "agent:managed"]);
    expect((await iterate()).code).toBe(0);
    const head = (await h.git(["rev-parse", `origin/${branch}`])).trim();
    expect((await h.git(["rev-parse", `${head}~1`])).trim()).toBe(before);
    expect(h.repo.repo.verifiedCommits?.has(head)).toBe(true);
    expect(await h.show(branch, "src/hello.js")).toBe("export const hi = () => 'hi hi';\n");
  });
});
