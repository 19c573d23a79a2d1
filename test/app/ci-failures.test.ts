/**
 * CI failures on pull requests, through the real app on the simulator: a
 * failed workflow run or another app's failed check suite on a Locus PR's
 * head dispatches fix-ci; never twice for one head; at most ci.maxAttempts
 * rounds in a row without a human push or comment, then one comment saying
 * what is left; a foreign PR's failures are ignored; `/locus fix-ci` by hand.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CiJobSpec } from "../../sandbox/github-sim/index.ts";
import { comment, commentsOf, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

/** Locus's commits: its bot, with the noreply address GitHub links to the app. */
function locus(on: AppHarness = h): { name: string; email: string } {
  const { login, id } = on.sim.bot;
  return { name: login, email: `${id}+${login}@users.noreply.github.com` };
}
const HUMAN = { name: "Alice", email: "alice@example.com" };
const failing: CiJobSpec[] = [
  { name: "test", steps: [{ name: "npm test", conclusion: "failure", output: "1 failed" }] },
];

/** A commit on `branch` (from `main` when new) by `who`, written straight into the bare repository. */
function commitOn(
  branch: string,
  who: { name: string; email: string },
  message: string,
  on: AppHarness = h,
): string {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", on.repo.gitDir, ...args], {
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: who.name,
        GIT_AUTHOR_EMAIL: who.email,
        GIT_COMMITTER_NAME: who.name,
        GIT_COMMITTER_EMAIL: who.email,
      },
    }).trim();
  const exists = git("for-each-ref", `refs/heads/${branch}`) !== "";
  const parent = git("rev-parse", exists ? `refs/heads/${branch}` : "main");
  const sha = git("commit-tree", git("rev-parse", `${parent}^{tree}`), "-p", parent, "-m", message);
  git("update-ref", `refs/heads/${branch}`, sha);
  return sha;
}

/** An issue in review with its PR opened by Locus (or by `author`). */
async function pullRequest(
  title: string,
  author = h.sim.app.botLogin,
  on: AppHarness = h,
): Promise<{ issue: number; pr: number; branch: string }> {
  const issue = await on.repo.issue({ title, labels: ["locus:in-review", "agent:managed"] }, { as: "alice" });
  const branch = `locus/issue-${issue.number}`;
  commitOn(branch, locus(on), `feat: ${title} (#${issue.number})`, on);
  const pr = await on.repo.pull({ title, head: branch, body: `Closes #${issue.number}` }, { as: author });
  return { issue: issue.number, pr: pr.number, branch };
}

async function ciFails(branch: string, workflowPath?: string): Promise<number> {
  const run = await h.sim.ci.run(h.repo.repo, {
    headBranch: branch,
    jobs: failing,
    ...(workflowPath ? { workflowPath } : {}),
  });
  await h.settle();
  return run.id;
}

function fixCiRuns(pr: number) {
  return runs(h).filter((run) => run.inputs.mode === "fix-ci" && run.inputs.pr === String(pr));
}

describe("a failing CI run on a Locus PR", () => {
  it("dispatches fix-ci once per failing head, naming the run", async () => {
    const { pr, branch } = await pullRequest("Add slugify");

    const runId = await ciFails(branch);
    await ciFails(branch, ".github/workflows/lint.yml");

    expect(fixCiRuns(pr).map((run) => run.inputs.command)).toEqual([`run ${runId}`]);
  });

  it("stops after ci.maxAttempts automatic rounds in a row, says once what is left, and starts again after a human comment", async () => {
    const { pr, branch } = await pullRequest("Add truncate");
    await ciFails(branch);
    commitOn(branch, locus(), "fix: make CI pass");
    await ciFails(branch);
    expect(fixCiRuns(pr)).toHaveLength(2);

    commitOn(branch, locus(), "fix: make CI pass");
    await ciFails(branch);
    commitOn(branch, locus(), "fix: make CI pass");
    await ciFails(branch);

    expect(fixCiRuns(pr)).toHaveLength(2);
    // As a reader sees it: Locus puts an invisible word joiner inside every closing keyword it publishes.
    const stops = (await commentsOf(h, pr))
      .map((body) => body.replaceAll("\u2060", ""))
      .filter((body) => body.includes("automatic fix-ci rounds in a row"));
    expect(stops).toHaveLength(1);
    expect(stops[0]).toContain("**test**");
    expect(stops[0]).toContain("`/locus fix-ci`");

    await comment(h, "alice", pr, "I looked at it: the fixture is wrong.");
    commitOn(branch, locus(), "fix: make CI pass");
    await ciFails(branch);
    expect(fixCiRuns(pr)).toHaveLength(3);
  });

  it("counts a human push as a fresh start", async () => {
    const { pr, branch } = await pullRequest("Add padStart");
    await ciFails(branch);
    commitOn(branch, locus(), "fix: make CI pass");
    await ciFails(branch);
    commitOn(branch, HUMAN, "wip: try something");

    await ciFails(branch);

    expect(fixCiRuns(pr)).toHaveLength(3);
  });

  it("ignores a failing run on a PR Locus did not open", async () => {
    const { pr, branch } = await pullRequest("Human work", "alice");

    await ciFails(branch);

    expect(fixCiRuns(pr)).toHaveLength(0);
    expect(await commentsOf(h, pr)).toEqual([]);
  });
});

describe("another app's failing check suite on a Locus PR", () => {
  it("dispatches fix-ci naming the suite; GitHub Actions' own suites are left to workflow_run", async () => {
    const { pr, branch } = await pullRequest("Add camelCase");
    const suite = await h.sim.ci.externalSuite(h.repo.repo, {
      app: { slug: "buildkite" },
      headBranch: branch,
      checkRuns: [{ name: "unit", conclusion: "failure", output: { title: "1 failed" } }],
    });
    await h.settle();

    expect(fixCiRuns(pr).map((run) => run.inputs.command)).toEqual([`suite ${suite.id}`]);
  });
});

describe("/locus fix-ci", () => {
  it("dispatches a round by hand on a Locus PR, and refuses on an issue", async () => {
    const { issue, pr } = await pullRequest("Add kebabCase");

    await comment(h, "alice", pr, "/locus fix-ci");
    await comment(h, "alice", issue, "/locus fix-ci");

    expect(fixCiRuns(pr).map((run) => run.inputs.command)).toEqual([""]);
    expect((await commentsOf(h, issue)).at(-1)).toContain("works on a pull request");
  });
});

it("is off with ci.autoFix: false", async () => {
  const off = await startAppHarness({
    files: {
      "README.md": "# demo\n",
      ".github/workflows/locus.yml": "name: Locus\n",
      ".github/locus.yml": "version: 3\nci:\n  autoFix: false\n",
    },
  });
  try {
    const { branch } = await pullRequest("Quiet", off.sim.app.botLogin, off);
    await off.sim.ci.run(off.repo.repo, { headBranch: branch, jobs: failing });
    await off.settle();
    expect(
      off.sim.store.repos.get(`${owner}/${repo}`)?.runs.filter((r) => r.inputs.mode === "fix-ci"),
    ).toEqual([]);
  } finally {
    await off.close();
  }
});
