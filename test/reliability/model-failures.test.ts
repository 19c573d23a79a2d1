/**
 * Model failures (docs/reliability.md) end to end: the Anthropic
 * API overloads (529) or cuts a stream in the middle of a tool call while a
 * real task runs. Issue mode drives the built-in runner (the real SDK) against
 * the Anthropic fake, the GitHub simulator and its bare git remote, with the
 * runner's retry sleep injected so the 1-2-4-8-16 s backoff passes at once.
 * Retries are bounded (docs/contracts.md "Retries": at most 5, so 6 attempts a turn);
 * past them the task fails cleanly with its work checkpointed; a tool call
 * cut mid-stream is never run.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ActionContext, ActionLog } from "../../lib/task/context.ts";
import { runIssueMode } from "../../lib/action/modes/issue.ts";
import { createSecretMask } from "../../lib/secrets/secret-mask.ts";
import { createRunner } from "../../lib/agent/create-runner.ts";
import { defaultConfig } from "../../lib/config/index.ts";
import { createGitClient } from "../../lib/git/git-client.ts";
import { createActionOctokit, createGateway, type GitHubGateway } from "../../lib/github/index.ts";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startAnthropicFake, type AnthropicFake } from "../../sandbox/anthropic-fake/server.ts";
import type { FakeTurn } from "../../sandbox/anthropic-fake/types.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { startTestSim, type TestSim } from "../sandbox/github-sim/harness.ts";
import { commitIdentity } from "../../lib/git/commit-identity.ts";

const exec = promisify(execFile);
const ANTHROPIC_KEY = "sk-ant-api03-r7TestKeyDoNotLeak0123456789abcdefghij";
const GREET = 'export function greet(name) {\n  return "helo " + name;\n}\n';
const FIXED = 'export function greet(name) {\n  return "hello " + name;\n}\n';

const fixTypo = reply(call("edit_file", { path: "src/greet.js", old_text: '"helo "', new_text: '"hello "' }));
const finish = reply(call("finish", { summary: "Fixed the greeting typo." }));
const overloaded: FakeTurn = { status: 529 };
const rateLimited: FakeTurn = { status: 429, headers: { "retry-after": "3" } };

let t: TestSim;
let fake: AnthropicFake;
let gitDir: string;
let scratch: string;
let gateway: GitHubGateway;
let issue: number;
const ignore = (): void => undefined;
const quiet: ActionLog = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  group: (_name, fn) => fn(),
};
/** The runner's waits between attempts, in ms: recorded, never slept. */
let sleeps: number[];

async function git(args: string[]): Promise<string> {
  return (await exec("git", args)).stdout;
}

/** The Action's ports as action/run.ts assembles them, but with the retry sleep injected. */
async function actionContext(): Promise<ActionContext> {
  const workspace = join(scratch, "workspace");
  await git(["clone", "--quiet", gitDir, workspace]);
  const config = defaultConfig();
  const identity = { login: "acme-locus[bot]", id: 4242 };
  const runnerEnv = {
    PATH: process.env["PATH"],
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fake.url,
  };
  return {
    gateway,
    identity,
    git: createGitClient({
      cwd: workspace,
      identity: commitIdentity(identity, config.commit),
      env: { PATH: process.env["PATH"], HOME: scratch },
    }),
    runner: createRunner("builtin", {
      env: runnerEnv,
      shell: config.shell,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    }),
    clock: { now: () => new Date() },
    log: quiet,
    config,
    run: {
      id: "7001",
      worktreeRoot: join(scratch, "runner-temp"),
      actor: "alice",
      repositoryUrl: `${t.sim.url}/acme/widgets`,
    },
    model: config.agent.model,
    maxTurns: 10,
    signal: new AbortController().signal,
    mask: createSecretMask([ANTHROPIC_KEY]),
    delivery: "r7-delivery",
    command: "",
  };
}

async function runWith(script: readonly FakeTurn[]) {
  fake.setScript(script);
  return runIssueMode(await actionContext(), [issue]);
}

/** A file of `ref` on the remote, or null when the ref or the file is not there. */
async function remoteFile(ref: string, path: string): Promise<string | null> {
  return git(["--git-dir", gitDir, "show", `${ref}:${path}`]).catch(() => null);
}

beforeEach(async () => {
  sleeps = [];
  scratch = await mkdtemp(join(tmpdir(), "locus-r7-"));
  fake = await startAnthropicFake();
  t = await startTestSim();
  const seeded = await t.sim.seed.repo("acme/widgets", {
    files: { "README.md": "# widgets\n", "src/greet.js": GREET },
  });
  seeded.collaborator("alice", "write");
  gitDir = seeded.gitDir;
  const token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  const log = quiet;
  gateway = createGateway({
    ownLogins: [t.sim.app.botLogin],
    octokit: createActionOctokit({
      token,
      baseUrl: t.sim.apiUrl,
      log,
      retryUnitMs: 0,
      minWriteIntervalMs: 0,
    }),
    repo: { owner: "acme", repo: "widgets" },
    log,
  });
  issue = (await gateway.createIssue({ title: "Fix the greeting typo", body: "It says helo." })).number;
  await gateway.setLabels(issue, ["locus:queued"]);
});

afterEach(async () => {
  await fake.close();
  await t.close();
  await rm(scratch, { recursive: true, force: true });
});

describe("model failures in a real task", () => {
  it("529 twice, then an answer: the turn is sent 3 times and the task delivers its PR", async () => {
    const result = await runWith([overloaded, overloaded, fixTypo, finish]);

    expect(result.tasks.map((task) => task.status)).toEqual(["succeeded"]);
    expect(fake.requests.map((request) => request.status)).toEqual([529, 529, 200, 200]);
    expect(sleeps).toEqual([1000, 2000]);
    expect(await remoteFile(`locus/issue-${issue}`, "src/greet.js")).toBe(FIXED);
    expect((await gateway.getIssue(issue))?.labels).toContain("locus:in-review");
  });

  it("429 with retry-after: the retry waits as long as the API asked, then the task delivers", async () => {
    const result = await runWith([rateLimited, fixTypo, finish]);

    expect(result.tasks.map((task) => task.status)).toEqual(["succeeded"]);
    expect(fake.requests.map((request) => request.status)).toEqual([429, 200, 200]);
    expect(sleeps).toEqual([3000]);
  });

  it("529 on every attempt after an edit: 6 attempts, then failed with the overload named and the edit on the wip branch", async () => {
    const result = await runWith([fixTypo, ...Array<FakeTurn>(6).fill(overloaded)]);

    expect(result.tasks.map((task) => task.status)).toEqual(["failed"]);
    expect(fake.requests.map((request) => request.status)).toEqual([200, 529, 529, 529, 529, 529, 529]);
    expect(sleeps).toEqual([1000, 2000, 4000, 8000, 16000]);
    const labels = (await gateway.getIssue(issue))?.labels ?? [];
    expect(labels).toContain("locus:failed");
    expect(labels).not.toContain("locus:in-progress");
    const comments = await gateway.listIssueComments(issue);
    const failure = comments.find((comment) => !comment.body.startsWith("<!-- locus:status -->"));
    expect(failure?.body).toContain("529 overloaded_error: Overloaded (gave up after 5 retries)");
    // The log tail shows five retries and a last failure that is not one.
    expect(failure?.body.match(/\(retry \d in \d+ s\)/g)).toEqual([
      "(retry 1 in 1 s)",
      "(retry 2 in 2 s)",
      "(retry 3 in 4 s)",
      "(retry 4 in 8 s)",
      "(retry 5 in 16 s)",
    ]);
    expect(failure?.body).toMatch(/gave up after 5 retries\)\n/);
    expect(failure?.body).toContain(`locus/wip/issue-${issue}`);
    expect(await remoteFile(`locus/wip/issue-${issue}`, "src/greet.js")).toBe(FIXED);
    expect(await remoteFile(`locus/issue-${issue}`, "src/greet.js")).toBeNull();
  });

  it("a stream cut inside a tool_use block is retried with the same request, and the half call never runs", async () => {
    // message_start, content_block_start (tool_use), ping, the empty input delta, then one piece of the input.
    const cut: FakeTurn = {
      dropAfterEvents: 5,
      response: reply(call("write_file", { path: "src/half.js", content: "export const half = 1;\n" })),
    };

    const result = await runWith([cut, fixTypo, finish]);

    expect(result.tasks.map((task) => task.status)).toEqual(["succeeded"]);
    expect(fake.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    expect(fake.requests[1]?.body).toEqual(fake.requests[0]?.body);
    expect(sleeps).toEqual([1000]);
    const branch = `locus/issue-${issue}`;
    expect(await remoteFile(branch, "src/greet.js")).toBe(FIXED);
    expect(await remoteFile(branch, "src/half.js")).toBeNull();
    const toolNames = result.tasks[0]?.cards.map((card) => card.tool);
    expect(toolNames).not.toContain("write_file");
  });
});
