/**
 * The honest-threads rule for the CLI and ACP providers, in process in a task
 * world (test/fakes/task-world.ts): an iterate round run by Claude Code (its
 * structured answer) or by an ACP agent (its final JSON) resolves only the
 * review threads the agent reported addressed, and answers the others with
 * its note. The runners' own parsing is test/lib/agent/tools/report-threads.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../../lib/action/modes/issue.ts";
import { runIterateMode } from "../../../../lib/action/modes/iterate.ts";
import { overallStatus } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, type TaskWorld } from "../../../fakes/task-world.ts";
import { installFakeCli } from "../../agent/runners/fake-cli.ts";
import { withCliProvider } from "./cli-provider-context.ts";

const AGENT = join(import.meta.dirname, "..", "..", "agent", "runners", "fixtures", "scripted-acp-agent.ts");
const NOTES = "# Notes\n\nGreetings are short.\n";
const REPORT = {
  summary: "Switched to a template string.",
  threads: [{ thread: "T1", addressed: true, note: "Now a template string." }],
};

let w: TaskWorld;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "locus-thread-reports-"));
  // git stamps Locus's commits with the machine's time: the fake's times follow it, as GitHub's do.
  w = await startTaskWorld({ github: { clock: { now: () => new Date() } } });
  w.github.store.permissions.set("rev", "write");
}, 60_000);

afterAll(async () => {
  await w.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A Locus PR (built-in agent) adding NOTES.md, two review threads on it (T1 and T2), and a writer's `/locus iterate`. */
async function pullRequestWithTwoThreads(title: string): Promise<number> {
  const issue = await w.github.createIssue({ title, body: "", labels: ["locus:queued"] });
  w.anthropic.setScript([
    reply(call("write_file", { path: "NOTES.md", content: NOTES })),
    reply(call("finish", { summary: "Notes added." })),
  ]);
  const delivered = await runIssueMode(await w.context(), [issue.number]);
  const pr = delivered.tasks[0]?.pr?.number ?? 0;
  const review = {
    event: "REQUEST_CHANGES" as const,
    body: "Two things.",
    comments: [
      { path: "NOTES.md", line: 1, body: `Use a template string (${title}).` },
      { path: "NOTES.md", line: 3, body: `Rename greet to welcome (${title}).` },
    ],
  };
  w.github.seedReview(pr, review, "rev");
  w.github.seedComment(pr, "/locus iterate", "rev");
  return pr;
}

function expectOnlyFirstThreadResolved(title: string): void {
  const first = w.github.threadStartingWith(`Use a template string (${title}).`);
  const second = w.github.threadStartingWith(`Rename greet to welcome (${title}).`);
  expect(first.isResolved).toBe(true);
  expect(first.comments.slice(1).map((c) => c.body)).toEqual([
    expect.stringContaining("Now a template string."),
  ]);
  expect(second.isResolved).toBe(false);
  expect(second.comments.slice(1).map((c) => c.author)).toEqual([w.github.store.self]);
  expect(second.comments[1]?.body).toContain("did not say it addressed this thread");
}

describe("thread reports from a CLI or ACP agent, in an iterate round", () => {
  it("claude-code: resolves the one thread its structured answer reports addressed", async () => {
    const title = "Claude Code round";
    const pr = await pullRequestWithTwoThreads(title);
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-answer.jsonl",
      cwd: w.scratch,
      answer: REPORT,
      writes: { "src/greet.js": "export function greet(name) {\n  return `Hello, ${name}`;\n}\n" },
    });
    const claude = await withCliProvider(await w.context(), {
      provider: "claude-code",
      cli,
      configYaml: "version: 3\nagent:\n  provider: claude-code\n",
    });

    const result = await runIterateMode(claude.ctx, pr).finally(() => claude.sandbox.close());

    expect(overallStatus(result)).toBe("succeeded");
    expect(await cli.args()).toContain("--json-schema");
    expectOnlyFirstThreadResolved(title);
    await rm(cli.dir, { recursive: true, force: true });
  }, 60_000);

  it("acp: resolves the one thread its final JSON reports addressed", async () => {
    const title = "ACP round";
    const pr = await pullRequestWithTwoThreads(title);
    const command = JSON.stringify([
      process.execPath,
      AGENT,
      "edit-report-threads",
      join(scratch, "acp.json"),
    ]);
    const acp = await withCliProvider(await w.context(), {
      provider: "acp",
      configYaml: `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${command}\n`,
    });

    const result = await runIterateMode(acp.ctx, pr).finally(() => acp.sandbox.close());

    expect(overallStatus(result)).toBe("succeeded");
    expectOnlyFirstThreadResolved(title);
  }, 60_000);
});
