/**
 * Checks before review, through the bundled Action: a task whose branch adds
 * a dependency is reviewed by GitHub's dependency review before its PR opens.
 * On a private repository without Advanced Security the PR says the review
 * could not run; with it, a vulnerable version is named in the PR body, and
 * with `pr.blockOnVulnerable` the task stops instead of opening the PR.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { configForThisMachine } from "../needs-bubblewrap.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

let h: Harness;
const manifest = (dependencies: Record<string, string>) =>
  `${JSON.stringify({ name: "widgets", dependencies }, null, 2)}\n`;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, "package.json": manifest({}) });
  h.sim.store.advisories.push({
    ghsaId: "GHSA-9x9x-9x9x-9x9x",
    ecosystem: "npm",
    name: "left-pad",
    versions: ["1.0.0"],
    severity: "critical",
    summary: "Pads with the wrong side",
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

function addLeftPad(): void {
  h.fake.setScript([
    reply(call("write_file", { path: "package.json", content: manifest({ "left-pad": "1.0.0" }) })),
    reply(call("finish", { summary: "Added left-pad." })),
  ]);
}

async function bodyOf(issue: number): Promise<string> {
  const pr = await h.api.findPullRequestByHead(`locus/issue-${issue}`, { state: "all" });
  return pr?.body ?? "";
}

describe("checks before review", () => {
  it("says on the PR when the dependency review cannot run on the repository", async () => {
    const issue = await h.api.createIssue({ title: "Pad names", labels: ["locus:queued"] });
    addLeftPad();
    expect((await h.run({ mode: "issue", issue: String(issue.number) })).code).toBe(0);
    const body = await bodyOf(issue.number);
    expect(body).toContain("## Checks before review");
    expect(body).toMatch(/Dependency review could not run.*GitHub answered 403/);
  });

  it("names a vulnerable dependency the branch brings in, with its advisory", async () => {
    h.repo.repo.advancedSecurity = true;
    const issue = await h.api.createIssue({ title: "Pad names again", labels: ["locus:queued"] });
    addLeftPad();
    expect((await h.run({ mode: "issue", issue: String(issue.number) })).code).toBe(0);
    const body = await bodyOf(issue.number);
    expect(body).toContain("> [!WARNING]");
    expect(body).toContain(
      "[GHSA-9x9x-9x9x-9x9x](https://github.com/advisories/GHSA-9x9x-9x9x-9x9x) (critical)",
    );
    expect(h.sim.store.permissionViolations).toEqual([]);
  });

  it("stops before the PR with pr.blockOnVulnerable, saying which dependency and why", async () => {
    await h.git(["checkout", "--quiet", "-B", "block", "origin/main"]);
    await mkdir(join(h.scratch, ".github"), { recursive: true });
    await writeFile(
      join(h.scratch, ".github", "locus.yml"),
      configForThisMachine("version: 3\npr:\n  blockOnVulnerable: true\n"),
    );
    await h.git(["add", ".github/locus.yml"]);
    await h.git(["commit", "--quiet", "-m", "config: block on vulnerable dependencies"]);
    await h.git(["push", "--quiet", "origin", "block:main"]);
    const issue = await h.api.createIssue({ title: "Pad names, carefully", labels: ["locus:queued"] });
    addLeftPad();
    await h.run({ mode: "issue", issue: String(issue.number) });
    expect(await h.api.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" })).toBeNull();
    expect((await h.api.getIssue(issue.number))?.labels).toContain("locus:failed");
    const comments = await h.api.listIssueComments(issue.number);
    expect(comments.map((c) => c.body).join("\n")).toMatch(
      /left-pad@1\.0\.0 \(GHSA-9x9x-9x9x-9x9x\).*pr\.blockOnVulnerable/,
    );
  });
});
