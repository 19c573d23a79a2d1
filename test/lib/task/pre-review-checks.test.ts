/**
 * Checks before review, in process in a task world (test/fakes/task-world.ts): a task whose
 * branch adds a dependency is reviewed by GitHub's dependency review (the fake's,
 * test/fakes/fake-dependency-review.ts, reading the manifests from the world's remote) before
 * its PR opens. On a private repository without Advanced Security the PR says the review could
 * not run; with it, a vulnerable version is named in the PR body, and with
 * `pr.blockOnVulnerable` the task stops instead of opening the PR.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { withDependencyReview, type FakeDependencyReview } from "../../fakes/fake-dependency-review.ts";
import { startTaskWorld, type TaskWorld } from "../../fakes/task-world.ts";
import { configForThisMachine } from "../../needs-bubblewrap.ts";
import { PROJECT_FILES } from "../../project-files.ts";

let w: TaskWorld;
const manifest = (dependencies: Record<string, string>) =>
  `${JSON.stringify({ name: "widgets", dependencies }, null, 2)}\n`;
/** The repository as the bundle's harness seeds it: private, without Advanced Security. */
const review: FakeDependencyReview = {
  isPrivate: true,
  advancedSecurity: false,
  advisories: [
    {
      ghsaId: "GHSA-9x9x-9x9x-9x9x",
      ecosystem: "npm",
      name: "left-pad",
      versions: ["1.0.0"],
      severity: "critical",
      summary: "Pads with the wrong side",
    },
  ],
};

beforeAll(async () => {
  w = await startTaskWorld({ files: { ...PROJECT_FILES, "package.json": manifest({}) } });
}, 60_000);

afterAll(async () => {
  await w.close();
});

function addLeftPad(): void {
  w.anthropic.setScript([
    reply(call("write_file", { path: "package.json", content: manifest({ "left-pad": "1.0.0" }) })),
    reply(call("finish", { summary: "Added left-pad." })),
  ]);
}

/** Mode issue on `issue`, its gateway's dependency review read from the remote. */
async function runTask(issue: number) {
  const ctx = await w.context();
  const manifestAt = (ref: string) => w.show(ref, "package.json").catch(() => null);
  const result = await runIssueMode({ ...ctx, gateway: withDependencyReview(w.github, manifestAt, review) }, [
    issue,
  ]);
  expect(w.github.callsOf("compareDependencies")).not.toEqual([]);
  return result;
}

async function bodyOf(issue: number): Promise<string> {
  const pr = await w.github.findPullRequestByHead(`locus/issue-${issue}`, { state: "all" });
  return pr?.body ?? "";
}

const queued = (title: string) => w.github.createIssue({ title, labels: ["locus:queued"] });

describe("checks before review, in process", { timeout: 60_000 }, () => {
  it("says on the PR when the dependency review cannot run on the repository", async () => {
    const issue = await queued("Pad names");
    addLeftPad();
    const result = await runTask(issue.number);
    expect(result.tasks.some((task) => task.fault)).toBe(false);
    const body = await bodyOf(issue.number);
    expect(body).toContain("## Checks before review");
    expect(body).toMatch(/Dependency review could not run.*GitHub answered 403/);
  });

  it("names a vulnerable dependency the branch brings in, with its advisory", async () => {
    review.advancedSecurity = true;
    const issue = await queued("Pad names again");
    addLeftPad();
    const result = await runTask(issue.number);
    expect(result.tasks.some((task) => task.fault)).toBe(false);
    const body = await bodyOf(issue.number);
    expect(body).toContain("> [!WARNING]");
    expect(body).toContain(
      "[GHSA-9x9x-9x9x-9x9x](https://github.com/advisories/GHSA-9x9x-9x9x-9x9x) (critical)",
    );
  });

  it("stops before the PR with pr.blockOnVulnerable, saying which dependency and why", async () => {
    await w.git(["checkout", "--quiet", "-B", "block", "origin/main"]);
    await mkdir(join(w.scratch, ".github"), { recursive: true });
    await writeFile(
      join(w.scratch, ".github", "locus.yml"),
      configForThisMachine("version: 3\npr:\n  blockOnVulnerable: true\n"),
    );
    await w.git(["add", ".github/locus.yml"]);
    await w.git(["commit", "--quiet", "-m", "config: block on vulnerable dependencies"]);
    await w.git(["push", "--quiet", "origin", "block:main"]);
    const issue = await queued("Pad names, carefully");
    addLeftPad();
    await runTask(issue.number);
    expect(await w.github.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" })).toBeNull();
    expect(w.github.labelsOf(issue.number)).toContain("locus:failed");
    const comments = w.github.store.comments.filter((c) => c.issue === issue.number);
    expect(comments.map((c) => c.body).join("\n")).toMatch(
      /left-pad@1\.0\.0 \(GHSA-9x9x-9x9x-9x9x\).*pr\.blockOnVulnerable/,
    );
  });
});
