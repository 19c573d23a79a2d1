/**
 * `/locus iterate` and `/locus fix-ci` on a pull request a person opened (`pr.humanPrs`), run in
 * process in a pull request world (pull-request-world.ts): one commit on top of theirs with a
 * `Co-authored-by` trailer for whoever asked, their commits untouched, no task issue's labels; a
 * branch the person moved meanwhile left as they made it, the work kept on a wip branch; a fork's
 * PR refused, setting or not; and without the setting, one reply naming it.
 */
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFixCiMode } from "../../../../lib/action/modes/fix-ci.ts";
import { runIterateMode } from "../../../../lib/action/modes/iterate.ts";
import { loadConfig, type LocusConfig } from "../../../../lib/config/index.ts";
import { overallStatus, type ModeResult } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { configForThisMachine } from "../../../needs-bubblewrap.ts";
import { startPullRequestWorld, type PullRequestWorld } from "./pull-request-world.ts";

let p: PullRequestWorld;
let humanPrs: LocusConfig;
/** rev's GitHub user id, as `GET /users/rev` answers it. */
const REV_ID = 100_000 + randomInt(900_000);

beforeAll(async () => {
  p = await startPullRequestWorld({ github: { permissions: { dana: "write", rev: "write" } } });
  const loaded = loadConfig(configForThisMachine("version: 3\npr:\n  humanPrs: true\n"));
  if (!loaded.ok) throw new Error("the config does not load");
  humanPrs = loaded.config;
}, 90_000);

afterAll(async () => {
  await p.w.close();
});

const danaCommits = ["-c", "user.name=Dana", "-c", "user.email=dana@example.com", "commit", "--quiet"];

/** Dana's own PR: one commit of hers on `branch`, opened by her. */
async function danasPullRequest(branch: string, fromFork = false): Promise<{ pr: number; sha: string }> {
  await p.w.git(["checkout", "--quiet", "-B", branch, "origin/main"]);
  await writeFile(
    join(p.w.scratch, "src/greet.js"),
    'export function greet(name) {\n  return "Hey, " + name;\n}\n',
  );
  await p.w.git([...danaCommits, "-am", "Say hey"]);
  await p.w.git(["push", "--quiet", "origin", `${branch}:refs/heads/${branch}`]);
  const sha = (await p.w.git(["rev-parse", "HEAD"])).trim();
  const opened = p.w.github.seedIssue({
    title: "Say hey",
    author: "dana",
    pull: {
      head: { ref: branch, sha },
      base: { ref: "main" },
      ...{ merged: false, draft: false, diff: "", reviews: [], threads: [], fromFork },
    },
  });
  await p.catchUp();
  return { pr: opened.number, sha };
}

/** As the app dispatches it on rev's `/locus <mode> <command>`, then the mode in process as that run. */
async function asDispatched(mode: "iterate" | "fix-ci", pr: number, command: string, config?: LocusConfig) {
  p.w.github.seedComment(pr, [`/locus ${mode}`, command].filter(Boolean).join(" "), "rev");
  const dispatched = await p.dispatch(mode, pr, { command, ...(config ? { config } : {}) });
  const ctx = {
    ...dispatched,
    userId: (login: string) =>
      login === "rev" ? Promise.resolve(REV_ID) : Promise.reject(new Error(`no user ${login}`)),
  };
  const firstRequest = p.w.anthropic.requests.length;
  const logStart = p.w.log.lines.length;
  const result: ModeResult = mode === "iterate" ? await runIterateMode(ctx, pr) : await runFixCiMode(ctx, pr);
  return {
    result,
    errors: p.w.log.lines.slice(logStart).filter((line) => line.startsWith("error:")),
    modelCalls: p.w.anthropic.requests.length - firstRequest,
    prompt: JSON.stringify(p.w.anthropic.requests[firstRequest]?.body ?? ""),
  };
}

const iterate = (pr: number, config?: LocusConfig) =>
  asDispatched("iterate", pr, "use a template string", config);

/** `/locus fix-ci` as the app dispatches it: no CI source, so the round reads the head's failed checks. */
const fixCi = (pr: number, config?: LocusConfig) => asDispatched("fix-ci", pr, "", config);

/** A CI run on the branch's head whose test step fails on Dana's greeting. */
async function failingCi(branch: string): Promise<void> {
  p.w.github.seedCiRun({
    headBranch: branch,
    headSha: await p.head(branch),
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

const botReplies = (pr: number) =>
  p.w.github.store.comments.filter((c) => c.issue === pr && c.author === p.w.github.store.self);

/** Locus's one commit, `subject` with the requester's trailer, right on top of the person's `sha`. */
async function expectOneCommitOnTop(branch: string, sha: string, subject: string): Promise<void> {
  const log = await p.w.git(["log", "--format=%H %s", `origin/main..origin/${branch}`]);
  const [ours, theirs] = log.trim().split("\n");
  expect(theirs).toBe(`${sha} Say hey`);
  expect(ours).toMatch(/^[0-9a-f]{40} /);
  expect(ours?.slice(41)).toBe(subject);
  const message = await p.w.git(["log", "-1", "--format=%B", `origin/${branch}`]);
  expect(message.trim()).toBe(`${subject}\n\nCo-authored-by: rev <${REV_ID}+rev@users.noreply.github.com>`);
}

/** A round on a person's PR: no label on it, a comment saying what was done, its status comment on the PR itself. */
function expectRoundOnThePullRequest(pr: number, said: (body: string) => boolean, statusLine: string): void {
  expect(p.w.github.labelsOf(pr)).toEqual([]);
  const comments = p.w.github.store.comments.filter((c) => c.issue === pr);
  expect(comments.some((c) => said(c.body))).toBe(true);
  const status = comments.find((c) => c.body.startsWith("<!-- locus:status -->"));
  expect(status?.body).toContain(statusLine);
}

describe("mode iterate on a person's pull request, in process", { timeout: 60_000 }, () => {
  it("with pr.humanPrs, adds one commit on top of theirs with a Co-authored-by trailer for the requester", async () => {
    const { pr, sha } = await danasPullRequest("dana/hey");
    p.w.anthropic.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hey, " + name', new_text: "`Hey, ${name}`" }),
      ),
      reply(call("finish", { summary: "Switched to a template string." })),
    ]);

    const { result, errors } = await iterate(pr, humanPrs);

    expect(errors).toEqual([]);
    expect(overallStatus(result)).toBe("succeeded");
    await expectOneCommitOnTop("dana/hey", sha, `fix: address review feedback (#${pr})`);
    expect(await p.w.git(["log", "-1", "--format=%an", "origin/dana/hey"])).toContain(
      p.w.github.store.self.replace("[bot]", ""),
    );
    expect(await p.w.show("dana/hey", "src/greet.js")).toContain("`Hey, ${name}`");
    expectRoundOnThePullRequest(
      pr,
      (body) => body.startsWith("Locus addressed the review feedback"),
      `for the review feedback on PR #${pr}.`,
    );
  });

  it("without pr.humanPrs, says once how to turn it on and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/hello");

    const { result, modelCalls } = await iterate(pr);

    expect(overallStatus(result)).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    expect(botReplies(pr).map((c) => c.body)).toEqual([expect.stringContaining("`pr.humanPrs: true`")]);
    expect(await p.head("dana/hello")).toBe(sha);
  });

  it("when the person pushes while Locus works, leaves their branch as they made it and keeps the work on a wip branch", async () => {
    const { pr } = await danasPullRequest("dana/race");
    await p.w.git(["checkout", "--quiet", "-B", "dana-later", "origin/dana/race"]);
    await writeFile(join(p.w.scratch, "README.md"), "# widgets, by Dana\n");
    await p.w.git([...danaCommits, "-am", "Readme"]);
    const theirs = (await p.w.git(["rev-parse", "HEAD"])).trim();
    p.w.anthropic.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hey, " + name', new_text: "`Hey, ${name}`" }),
      ),
      () => {
        execFileSync("git", ["push", "--quiet", "origin", "dana-later:refs/heads/dana/race"], {
          cwd: p.w.scratch,
        });
        return reply(call("finish", { summary: "Switched to a template string." }));
      },
    ]);

    const { result } = await iterate(pr, humanPrs);

    expect(overallStatus(result)).toBe("failed");
    expect(await p.head("dana/race")).toBe(theirs);
    const wip = `locus/wip/issue-${pr}`;
    expect(await p.w.show(wip, "src/greet.js")).toContain("`Hey, ${name}`");
    const last = p.w.github.store.comments.filter((c) => c.issue === pr).at(-1)?.body ?? "";
    expect(last).toContain("Locus did not push");
    expect(last).toContain(wip);
  });
});

describe("mode fix-ci on a person's pull request, in process", { timeout: 60_000 }, () => {
  it("with pr.humanPrs, adds one commit on top of theirs for the failing check, with a Co-authored-by trailer", async () => {
    const { pr, sha } = await danasPullRequest("dana/ci");
    await failingCi("dana/ci");
    p.w.anthropic.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: '"Hey, "', new_text: '"Hello, "' })),
      reply(call("finish", { summary: "The test expects Hello." })),
    ]);

    const { result, errors, prompt } = await fixCi(pr, humanPrs);

    expect(errors).toEqual([]);
    expect(overallStatus(result)).toBe("succeeded");
    expect(prompt).toContain("actual: 'Hey, Ada'");
    expect(prompt).toContain("A person opened this pull request; Locus did not. Make its failing CI pass");
    await expectOneCommitOnTop("dana/ci", sha, `fix: make CI pass (#${pr})`);
    expect(await p.w.show("dana/ci", "src/greet.js")).toContain('"Hello, " + name');
    // A word joiner keeps GitHub from reading "fix … #N" as a closing keyword.
    expectRoundOnThePullRequest(
      pr,
      (body) => body.includes("Locus pushed "),
      `for the CI failure on PR #${pr}.`,
    );
  });

  it("refuses a fork's PR once, even with pr.humanPrs, and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/from-fork", true);
    await failingCi("dana/from-fork");

    const { result, modelCalls } = await fixCi(pr, humanPrs);

    expect(overallStatus(result)).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    expect(botReplies(pr).map((c) => c.body)).toEqual([
      expect.stringContaining("`/locus fix-ci` does not work on a pull request from a fork"),
    ]);
    expect(await p.head("dana/from-fork")).toBe(sha);
  });

  it("without pr.humanPrs, says once how to turn it on and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/ci-off");
    await failingCi("dana/ci-off");

    const { result, modelCalls } = await fixCi(pr);

    expect(overallStatus(result)).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    expect(botReplies(pr).map((c) => c.body)).toEqual([expect.stringContaining("`pr.humanPrs: true`")]);
    expect(await p.head("dana/ci-off")).toBe(sha);
  });
});
