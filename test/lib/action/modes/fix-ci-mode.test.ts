/**
 * Mode `fix-ci` (lib/action/modes/fix-ci.ts) run in process in a task world:
 * the real git client, agent runner and sandbox on a bare remote, the typed
 * GitHub fake (whose CI run is the project's real `node --test`, run on the
 * PR's head) and the Anthropic fake. A failing run gets a fix commit that makes
 * the next run green, with the failed step's log tail and the annotations in
 * the agent's prompt, a comment, and the issue back in review. A failure the agent judges unrelated is
 * reported, a run on an older head is left alone, scratch files stay out of
 * the fix, and another round's saved work on the wip branch is neither
 * deleted nor saved over. The bundled Action's own fix-ci runs (a private
 * repository's phase tokens against the simulator, provider acp) are
 * test/action/fix-ci-mode.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFixCiMode } from "../../../../lib/action/modes/fix-ci.ts";
import { overallStatus } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { nodeTestCi } from "../../../../sandbox/world/node-test-ci.ts";
import { startPullRequestWorld, type PullRequestWorld } from "./pull-request-world.ts";
import { NODE_TEST_PROJECT_FILES } from "../../../project-files.ts";

const FILES = NODE_TEST_PROJECT_FILES;

let p: PullRequestWorld;
const ci = nodeTestCi();

beforeAll(async () => {
  p = await startPullRequestWorld({ files: FILES });
}, 90_000);

afterAll(async () => {
  await p.w.close();
});

/** The project's CI on the branch's head, recorded on the fake as GitHub Actions reports it. */
async function runCi(branch: string) {
  const headSha = await p.head(branch);
  const jobs = await ci({ ...p.w.github.repo, gitDir: p.w.scratch, headBranch: branch, headSha });
  return p.w.github.seedCiRun({ headBranch: branch, headSha, jobs });
}

async function fixCi(pr: number, runId: number) {
  await p.catchUp();
  const ctx = await p.dispatch("fix-ci", pr, { command: `run ${runId}` });
  const firstRequest = p.w.anthropic.requests.length;
  const result = await runFixCiMode(ctx, pr);
  return { result, prompt: JSON.stringify(p.w.anthropic.requests[firstRequest]?.body) };
}

const lastComment = (number: number) =>
  p.w.github.store.comments.filter((c) => c.issue === number).at(-1)?.body ?? "";

/** Saved work of an earlier round on `locus/wip/issue-<N>`, on top of the PR's head. */
async function savedWork(issue: number, branch: string): Promise<string> {
  await p.w.git(["checkout", "--quiet", "-B", "saved", `origin/${branch}`]);
  await p.w.git([
    ...["commit", "--quiet", "--allow-empty", "-m"],
    `wip: review feedback (#${issue})\n\nStopped: its time limit`,
  ]);
  await p.w.git(["push", "--quiet", "origin", `saved:refs/heads/locus/wip/issue-${issue}`]);
  return (await p.w.git(["rev-parse", "saved"])).trim();
}

const expectHi = () =>
  reply(call("edit_file", { path: "test/greet.test.js", old_text: '"Hello, Ada"', new_text: '"Hi, Ada"' }));

describe("mode fix-ci, in process", { timeout: 60_000 }, () => {
  // Two CI runs and a fix that runs the tests: the time limit it had through the bundle, against a hang.
  it("fixes a failing node --test run on a Locus PR: a fix commit, a comment, a green run, the issue back in review", async () => {
    const { issue, pr, branch } = await p.locusPullRequest("Greet informally");
    const failed = await runCi(branch);
    expect(failed.conclusion).toBe("failure");
    p.w.anthropic.setScript([
      reply(call("run_shell", { command: "node --test" })),
      expectHi(),
      reply(call("finish", { summary: "The test still expected the old greeting; it now expects Hi." })),
    ]);

    const { result, prompt } = await fixCi(pr, failed.id);

    expect(overallStatus(result)).toBe("succeeded");
    expect(prompt).toContain("CI failed on this pull request");
    expect(prompt).toContain("Failed steps: `node --test`");
    expect(prompt).toContain("✖ greets");
    expect(prompt).toContain("- 'Hello, Ada'");
    expect(prompt).toContain("Process completed with exit code 1.");
    expect(prompt).toContain("reproduce the failure locally");
    const log = await p.w.git(["log", "--format=%an|%s", "-2", `origin/${branch}`]);
    expect(log.split("\n")[0]).toBe(`${p.w.github.store.self}|fix: make CI pass (#${issue})`);
    const said = lastComment(pr);
    expect(said).toMatch(/CI failed on [0-9a-f]{7}:\n\n- \*\*test\*\* \(step `node --test`\): failure/);
    expect(said).toContain("`test/greet.test.js`");
    expect(said).toContain("it now expects Hi");
    const labels = p.w.github.labelsOf(issue);
    expect(labels).toContain("locus:in-review");
    expect(labels).not.toContain("locus:in-progress");

    const green = await runCi(branch);
    expect(green.conclusion).toBe("success");
  }, 120_000);

  it("reports a failure it judges unrelated to the PR, and commits nothing", async () => {
    const { pr, branch } = await p.locusPullRequest("Greet briefly");
    const headBefore = await p.head(branch);
    const flaky = p.w.github.seedCiRun({
      headBranch: branch,
      headSha: headBefore,
      jobs: [
        {
          name: "deploy-preview",
          steps: [{ name: "upload", conclusion: "failure", output: "Error: connect ETIMEDOUT 10.0.0.7:443" }],
        },
      ],
    });
    p.w.anthropic.setScript([
      reply(call("run_shell", { command: "node --test" })),
      reply(call("report_unrelated_failure", { reason: "The upload timed out reaching the preview host." })),
      reply(call("finish", { summary: "Nothing to fix in the code." })),
    ]);

    const { prompt } = await fixCi(pr, flaky.id);

    expect(prompt).toContain("connect ETIMEDOUT");
    expect(await p.head(branch)).toBe(headBefore);
    const said = lastComment(pr);
    expect(said).toContain("unrelated to the pull request and changed nothing");
    expect(said).toContain("timed out reaching the preview host");
  });

  it("does nothing when the failed run was on an older head than the PR's", async () => {
    const { pr, branch } = await p.locusPullRequest("Greet slowly");
    const failed = await runCi(branch);
    await p.w.git(["checkout", "--quiet", "-B", "moved", `origin/${branch}`]);
    await p.w.git(["commit", "--quiet", "--allow-empty", "-m", "someone pushes"]);
    await p.w.git(["push", "--quiet", "origin", `moved:${branch}`]);
    const before = p.w.anthropic.requests.length;

    await fixCi(pr, failed.id);

    expect(p.w.anthropic.requests.length).toBe(before);
    expect(lastComment(pr)).toMatch(/but PR #\d+'s head is now/);
  });

  it("refuses a pull request Locus did not open, without pr.humanPrs, without running the agent", async () => {
    await p.w.git(["checkout", "--quiet", "-B", "feature/x", "origin/main"]);
    await p.w.git(["commit", "--quiet", "--allow-empty", "-m", "human work"]);
    await p.w.git(["push", "--quiet", "origin", "feature/x"]);
    const foreign = p.w.github.seedIssue({
      title: "Human PR",
      author: "dana",
      pull: {
        head: { ref: "feature/x", sha: await p.head("feature/x") },
        base: { ref: "main" },
        ...{ merged: false, draft: false, diff: "", reviews: [], threads: [], fromFork: false },
      },
    });
    const before = p.w.anthropic.requests.length;

    await fixCi(foreign.number, 1);

    expect(p.w.anthropic.requests.length).toBe(before);
    expect(lastComment(foreign.number)).toContain("set `pr.humanPrs: true` in `.github/locus.yml`");
  });

  it("commits its fix without the scratch files its commands made, and says what it left out", async () => {
    const { pr, branch } = await p.locusPullRequest("Greet casually");
    const failed = await runCi(branch);
    p.w.anthropic.setScript([
      reply(
        call("run_shell", {
          command: "mkdir -p tmp && node --test > tmp/run.txt; node --test 2> debug.log; true",
        }),
      ),
      expectHi(),
      reply(call("finish", { summary: "The test now expects Hi." })),
    ]);

    const { result } = await fixCi(pr, failed.id);

    expect(overallStatus(result)).toBe("succeeded");
    const changed = (await p.w.git(["show", "--name-only", "--format=", `origin/${branch}`]))
      .split("\n")
      .filter(Boolean);
    expect(changed).toEqual(["test/greet.test.js"]);
    const said = lastComment(pr);
    expect(said).toContain("Left out of the commit");
    expect(said).toContain("`tmp/run.txt`");
    expect(said).toContain("`debug.log`");
  });

  it("leaves another round's saved work on the wip branch when it pushes its fix", async () => {
    const { issue, pr, branch } = await p.locusPullRequest("Greet kindly");
    const saved = await savedWork(issue, branch);
    const failed = await runCi(branch);
    p.w.anthropic.setScript([expectHi(), reply(call("finish", { summary: "The test now expects Hi." }))]);

    const { result } = await fixCi(pr, failed.id);

    expect(overallStatus(result)).toBe("succeeded");
    expect(await p.head(`locus/wip/issue-${issue}`)).toBe(saved);
  });

  it("does not save over another round's saved work when it fails", async () => {
    const { issue, pr, branch } = await p.locusPullRequest("Greet warmly");
    const saved = await savedWork(issue, branch);
    const failed = await runCi(branch);
    p.w.anthropic.setScript([expectHi()]);

    const { result } = await fixCi(pr, failed.id);

    expect(overallStatus(result)).toBe("failed");
    expect(await p.head(`locus/wip/issue-${issue}`)).toBe(saved);
  });
});
