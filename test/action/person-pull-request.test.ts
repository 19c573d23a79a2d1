/**
 * `/locus iterate` and `/locus fix-ci` on a pull request a person opened (`pr.humanPrs`), through
 * the bundled Action on the simulator: one commit on top of theirs with a `Co-authored-by` trailer
 * for whoever asked, their commits untouched, no task issue's labels; a branch the person moved
 * meanwhile left as they made it, the work kept on a wip branch; a fork's PR refused, setting or
 * not; and without the setting, one reply naming it.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, REPO, startHarness, type Harness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { configForThisMachine } from "../needs-bubblewrap.ts";
import { findUser } from "../../sandbox/github-sim/store.ts";

const HUMAN_PRS = ".github/human-prs.yml";
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    ...callerWorkflowFiles(),
    [HUMAN_PRS]: configForThisMachine("version: 3\npr:\n  humanPrs: true\n"),
  });
  h.repo.collaborator("dana", "write");
  h.repo.collaborator("rev", "write");
}, 90_000);

afterAll(async () => {
  await h.close();
});

/** Dana's own PR: one commit of hers on `branch`, opened by her. */
async function danasPullRequest(branch: string): Promise<{ pr: number; sha: string }> {
  await h.git(["checkout", "--quiet", "-B", branch, "origin/main"]);
  await writeFile(
    join(h.scratch, "src/greet.js"),
    'export function greet(name) {\n  return "Hey, " + name;\n}\n',
  );
  await h.git([
    "-c",
    "user.name=Dana",
    "-c",
    "user.email=dana@example.com",
    "commit",
    "--quiet",
    "-am",
    "Say hey",
  ]);
  await h.git(["push", "--quiet", "origin", `${branch}:refs/heads/${branch}`]);
  const sha = (await h.git(["rev-parse", "HEAD"])).trim();
  const opened = await h
    .as("dana")
    .createPullRequest({ title: "Say hey", body: "", head: branch, base: "main" });
  return { pr: opened.number, sha };
}

/** As the app dispatches it on rev's `/locus <mode> <command>`, then the Action as that run. */
async function asDispatched(mode: "iterate" | "fix-ci", pr: number, inputs: Record<string, string>) {
  await h.as("rev").createComment(pr, [`/locus ${mode}`, inputs["command"]].filter(Boolean).join(" "));
  await h.api.dispatchWorkflow("locus.yml", "main", { mode, pr: String(pr) });
  const [created] = await h.api.listWorkflowRuns("locus.yml");
  const firstRequest = h.fake.requests.length;
  const run = await h.run({ mode, pr: String(pr), ...inputs }, { GITHUB_RUN_ID: String(created?.id) });
  return {
    run,
    modelCalls: h.fake.requests.length - firstRequest,
    prompt: JSON.stringify(h.fake.requests[firstRequest]?.body ?? ""),
  };
}

function iterate(pr: number, inputs: Record<string, string> = {}) {
  return asDispatched("iterate", pr, { command: "use a template string", ...inputs });
}

/** `/locus fix-ci` as the app dispatches it: no CI source, so the round reads the head's failed checks. */
function fixCi(pr: number, inputs: Record<string, string> = {}) {
  return asDispatched("fix-ci", pr, inputs);
}

/** A CI run on the branch's head whose test step fails on Dana's greeting. */
async function failingCi(branch: string): Promise<void> {
  await h.sim.ci.run(h.repo.repo, {
    headBranch: branch,
    jobs: [
      {
        name: "test",
        steps: [
          { name: "actions/checkout@v5" },
          {
            name: "node --test",
            conclusion: "failure",
            output: "not ok 1 - greets\n  expected: 'Hello, Ada'\n  actual: 'Hey, Ada'",
          },
        ],
      },
    ],
  });
}

/** Locus's one commit, `subject` with the requester's trailer, right on top of the person's `sha`. */
async function expectOneCommitOnTop(branch: string, sha: string, subject: string): Promise<void> {
  const log = await h.git(["log", "--format=%H %s", `origin/main..origin/${branch}`]);
  const [ours, theirs] = log.trim().split("\n");
  expect(theirs).toBe(`${sha} Say hey`);
  expect(ours).toMatch(/^[0-9a-f]{40} /);
  expect(ours?.slice(41)).toBe(subject);
  const rev = findUser(h.sim.store, "rev")?.id;
  const message = await h.git(["log", "-1", "--format=%B", `origin/${branch}`]);
  expect(message.trim()).toBe(`${subject}\n\nCo-authored-by: rev <${rev}+rev@users.noreply.github.com>`);
}

/** A round on a person's PR: no label on it, a comment saying what was done, its status comment on the PR itself. */
async function expectRoundOnThePullRequest(
  pr: number,
  said: (body: string) => boolean,
  statusLine: string,
): Promise<void> {
  const pull = await h.api.getIssue(pr);
  expect(pull?.labels).toEqual([]);
  expect(pull?.comments.some((c) => said(c.body))).toBe(true);
  const status = pull?.comments.find((c) => c.body.startsWith("<!-- locus:status -->"));
  expect(status?.body).toContain(statusLine);
}

describe("mode iterate on a person's pull request", () => {
  it("with pr.humanPrs, adds one commit on top of theirs with a Co-authored-by trailer for the requester", async () => {
    const { pr, sha } = await danasPullRequest("dana/hey");
    h.fake.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hey, " + name', new_text: "`Hey, ${name}`" }),
      ),
      reply(call("finish", { summary: "Switched to a template string." })),
    ]);

    const { run } = await iterate(pr, { "config-path": HUMAN_PRS });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    await expectOneCommitOnTop("dana/hey", sha, `fix: address review feedback (#${pr})`);
    expect(await h.git(["log", "-1", "--format=%an", "origin/dana/hey"])).toContain(
      h.bot.login.replace("[bot]", ""),
    );
    expect(await h.show("dana/hey", "src/greet.js")).toContain("`Hey, ${name}`");
    await expectRoundOnThePullRequest(
      pr,
      (body) => body.startsWith("Locus addressed the review feedback"),
      `for the review feedback on PR #${pr}.`,
    );
  });

  it("without pr.humanPrs, says once how to turn it on and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/hello");

    const { run, modelCalls } = await iterate(pr);

    expect(run.outputs["status"]).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    const replies = ((await h.api.getIssue(pr))?.comments ?? []).filter((c) => c.author === h.bot.login);
    expect(replies.map((c) => c.body)).toEqual([expect.stringContaining("`pr.humanPrs: true`")]);
    expect((await h.git(["rev-parse", "origin/dana/hello"])).trim()).toBe(sha);
  });

  it("when the person pushes while Locus works, leaves their branch as they made it and keeps the work on a wip branch", async () => {
    const { pr } = await danasPullRequest("dana/race");
    const theirs = await (async () => {
      await h.git(["checkout", "--quiet", "-B", "dana-later", "origin/dana/race"]);
      await writeFile(join(h.scratch, "README.md"), "# widgets, by Dana\n");
      await h.git([
        "-c",
        "user.name=Dana",
        "-c",
        "user.email=dana@example.com",
        "commit",
        "--quiet",
        "-am",
        "Readme",
      ]);
      return (await h.git(["rev-parse", "HEAD"])).trim();
    })();
    h.fake.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hey, " + name', new_text: "`Hey, ${name}`" }),
      ),
      () => {
        execFileSync("git", ["push", "--quiet", "origin", "dana-later:refs/heads/dana/race"], {
          cwd: h.scratch,
        });
        return reply(call("finish", { summary: "Switched to a template string." }));
      },
    ]);

    const { run } = await iterate(pr, { "config-path": HUMAN_PRS });

    expect(run.outputs["status"]).toBe("failed");
    expect((await h.git(["rev-parse", "origin/dana/race"])).trim()).toBe(theirs);
    const wip = `locus/wip/issue-${pr}`;
    expect(await h.show(wip, "src/greet.js")).toContain("`Hey, ${name}`");
    const last = (await h.api.getIssue(pr))?.comments.at(-1)?.body ?? "";
    expect(last).toContain("Locus did not push");
    expect(last).toContain(wip);
  });
});

describe("mode fix-ci on a person's pull request", () => {
  it("with pr.humanPrs, adds one commit on top of theirs for the failing check, with a Co-authored-by trailer", async () => {
    const { pr, sha } = await danasPullRequest("dana/ci");
    await failingCi("dana/ci");
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: '"Hey, "', new_text: '"Hello, "' })),
      reply(call("finish", { summary: "The test expects Hello." })),
    ]);

    const { run, prompt } = await fixCi(pr, { "config-path": HUMAN_PRS });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    expect(prompt).toContain("actual: 'Hey, Ada'");
    expect(prompt).toContain("A person opened this pull request; Locus did not. Make its failing CI pass");
    await expectOneCommitOnTop("dana/ci", sha, `fix: make CI pass (#${pr})`);
    expect(await h.show("dana/ci", "src/greet.js")).toContain('"Hello, " + name');
    // A word joiner keeps GitHub from reading "fix … #N" as a closing keyword.
    await expectRoundOnThePullRequest(
      pr,
      (body) => body.includes("Locus pushed "),
      `for the CI failure on PR #${pr}.`,
    );
  });

  it("refuses a fork's PR once, even with pr.humanPrs, and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/from-fork");
    await failingCi("dana/from-fork");
    await h.sim.seed.repo(`dana/${REPO}`, { install: false });
    const pull = h.repo.repo.issues.get(pr)?.pull;
    if (!pull) throw new Error(`no pull request #${pr}`);
    pull.headRepository = `dana/${REPO}`;

    const { run, modelCalls } = await fixCi(pr, { "config-path": HUMAN_PRS });

    expect(run.outputs["status"]).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    const replies = ((await h.api.getIssue(pr))?.comments ?? []).filter((c) => c.author === h.bot.login);
    expect(replies.map((c) => c.body)).toEqual([
      expect.stringContaining("`/locus fix-ci` does not work on a pull request from a fork"),
    ]);
    expect((await h.git(["rev-parse", "origin/dana/from-fork"])).trim()).toBe(sha);
  });

  it("without pr.humanPrs, says once how to turn it on and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/ci-off");
    await failingCi("dana/ci-off");

    const { run, modelCalls } = await fixCi(pr);

    expect(run.outputs["status"]).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    const replies = ((await h.api.getIssue(pr))?.comments ?? []).filter((c) => c.author === h.bot.login);
    expect(replies.map((c) => c.body)).toEqual([expect.stringContaining("`pr.humanPrs: true`")]);
    expect((await h.git(["rev-parse", "origin/dana/ci-off"])).trim()).toBe(sha);
  });
});
