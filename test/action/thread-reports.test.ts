/**
 * The honest-threads rule for every provider, through the bundled Action on the simulator: an
 * iterate round run by Claude Code (its structured answer) or by an ACP agent (its final JSON)
 * resolves only the review threads the agent reported addressed, and answers the others with
 * its note. The runners' own parsing is covered in test/lib/agent/tools/report-threads.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { installFakeCli } from "../lib/agent/runners/fake-cli.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { PROJECT_FILES, startHarness, type Harness, reviewThread } from "./harness.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");
const NOTES = "# Notes\n\nGreetings are short.\n";
const REPORT = {
  summary: "Switched to a template string.",
  threads: [{ thread: "T1", addressed: true, note: "Now a template string." }],
};

let h: Harness;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "locus-thread-reports-"));
  const acpCommand = JSON.stringify([
    process.execPath,
    AGENT,
    "edit-report-threads",
    join(scratch, "acp.json"),
  ]);
  // The fake CLI and the scripted agent are files of this repository, outside any sandbox's mounts;
  // the sandboxed providers have tests of their own (test/lib/sandbox).
  h = await startHarness({
    ...PROJECT_FILES,
    ...callerWorkflowFiles(),
    ".github/locus-claude.yml": "version: 3\nagent:\n  provider: claude-code\nsandbox:\n  mode: off\n",
    ".github/locus-acp.yml": `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${acpCommand}\nsandbox:\n  mode: off\n`,
  });
  h.repo.collaborator("rev", "write");
}, 60_000);

afterAll(async () => {
  await h.close();
  await rm(scratch, { recursive: true, force: true });
});

/**
 * A Locus PR (built-in agent) adding NOTES.md, two review threads on it (T1 and T2), and a writer's
 * `/locus iterate` dispatched as the app does: the PR and the run's id.
 */
async function pullRequestWithTwoThreads(title: string): Promise<{ pr: number; runId: string }> {
  const issue = await h.api.createIssue({ title, labels: ["locus:queued"] });
  h.fake.setScript([
    reply(call("write_file", { path: "NOTES.md", content: NOTES })),
    reply(call("finish", { summary: "Notes added." })),
  ]);
  const run = await h.run({ mode: "issue", issue: String(issue.number) });
  const pr = Number(run.outputs["pr-number"]);
  await h.as("rev").createReview(pr, {
    event: "REQUEST_CHANGES",
    body: "Two things.",
    comments: [
      { path: "NOTES.md", line: 1, body: `Use a template string (${title}).` },
      { path: "NOTES.md", line: 3, body: `Rename greet to welcome (${title}).` },
    ],
  });
  await h.as("rev").createComment(pr, "/locus iterate");
  await h.api.dispatchWorkflow("locus.yml", "main", { mode: "iterate", pr: String(pr) });
  const [created] = await h.api.listWorkflowRuns("locus.yml");
  return { pr, runId: String(created?.id) };
}

function expectOnlyFirstThreadResolved(title: string): void {
  const first = reviewThread(h, `Use a template string (${title}).`);
  const second = reviewThread(h, `Rename greet to welcome (${title}).`);
  expect(first.root.resolved).toBe(true);
  expect(first.replies.map((c) => c.body)).toEqual([expect.stringContaining("Now a template string.")]);
  expect(second.root.resolved).toBe(false);
  expect(second.replies.map((c) => c.author)).toEqual([h.bot.login]);
  expect(second.replies[0]?.body).toContain("did not say it addressed this thread");
}

describe("thread reports from a CLI or ACP agent, in an iterate round", () => {
  it("claude-code: resolves the one thread its structured answer reports addressed", async () => {
    const title = "Claude Code round";
    const { pr, runId } = await pullRequestWithTwoThreads(title);
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-answer.jsonl",
      cwd: h.dir,
      answer: REPORT,
      writes: { "src/greet.js": "export function greet(name) {\n  return `Hello, ${name}`;\n}\n" },
    });

    const run = await h.run(
      { mode: "iterate", pr: String(pr), "config-path": ".github/locus-claude.yml" },
      { PATH: cli.path, GITHUB_RUN_ID: runId },
    );

    expect(run.outputs["status"]).toBe("succeeded");
    expect(await cli.args()).toContain("--json-schema");
    expectOnlyFirstThreadResolved(title);
    await rm(cli.dir, { recursive: true, force: true });
  });

  it("acp: resolves the one thread its final JSON reports addressed", async () => {
    const title = "ACP round";
    const { pr, runId } = await pullRequestWithTwoThreads(title);

    const run = await h.run(
      { mode: "iterate", pr: String(pr), "config-path": ".github/locus-acp.yml" },
      { GITHUB_RUN_ID: runId },
    );

    expect(run.outputs["status"]).toBe("succeeded");
    expectOnlyFirstThreadResolved(title);
  });
});
