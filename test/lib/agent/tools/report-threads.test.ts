/**
 * Thread reports from every provider: a Claude Code or ACP agent's final JSON
 * answer is taken as its `report_threads` call, and the honest-threads rule
 * then resolves only the threads it reported addressed. An agent that reports
 * nothing still succeeds, and every thread stays open with one note.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import type { AgentRunner, ExecuteOptions, ThreadReport } from "../../../../lib/agent/runner.ts";
import { createReportThreadsTool } from "../../../../lib/agent/tools/report-threads.ts";
import { DEFAULT_SHELL_DENY } from "../../../../lib/config/index.ts";
import { threadReplies, unreportedThreadsNote } from "../../../../lib/pull-request/thread-replies.ts";
import { NODE_WITH_COMPILE_CACHE } from "../../../node-with-compile-cache.ts";
import { installFakeCli } from "../runners/fake-cli.ts";

const AGENT = join(import.meta.dirname, "..", "runners", "fixtures", "scripted-acp-agent.ts");
const THREADS = [{ id: "thread-template" }, { id: "thread-rename" }];

let dir: string;
let cwd: string;
let events: AgentEvent[];

function claudeCode(path: string): AgentRunner {
  return createRunner("claude-code", {
    env: { PATH: path, ANTHROPIC_API_KEY: "sk-ant-cli" },
    shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
  });
}

function acp(scenario: string): AgentRunner {
  return createRunner("acp", {
    env: { PATH: process.env["PATH"] ?? "", HOME: dir },
    shell: { allow: ["*"], deny: [...DEFAULT_SHELL_DENY], timeoutSeconds: 30 },
    acp: { command: [...NODE_WITH_COMPILE_CACHE, AGENT, scenario, join(dir, "agent-log.json")], env: [] },
  });
}

/** One iterate round's run with the report tool, as iterate mode gives it, and what the agent reported. */
async function round(runner: AgentRunner) {
  let reported: readonly ThreadReport[] | undefined;
  const options: ExecuteOptions = {
    prompt: { system: "Follow LOCUS.md.", context: "Repository: greet.js", task: "Address T1 and T2" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 12,
    onEvent: (event) => events.push(event),
    tools: [createReportThreadsTool((threads) => (reported = threads))],
  };
  const result = await runner.execute(options);
  return { result, reported, replies: threadReplies(THREADS, reported, "abc1234", true) };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-thread-reports-"));
  cwd = join(dir, "worktree");
  await mkdir(join(cwd, "src"), { recursive: true });
  await mkdir(join(cwd, ".git"));
  await writeFile(join(cwd, "src", "greet.js"), 'export const greet = (name) => "Hi, " + name;\n');
  events = [];
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("thread reports from a CLI or ACP agent", () => {
  it("claude-code: the structured answer reports one of two threads, and only that one resolves", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-answer.jsonl",
      cwd,
      answer: {
        summary: "Switched to a template string.",
        threads: [{ thread: "T1", addressed: true, note: "Now a template string." }],
      },
    });

    const { result, reported, replies } = await round(claudeCode(cli.path));

    expect(await cli.stdin()).toContain("This run has no `report_threads` tool");
    expect(result).toMatchObject({ success: true, summary: "Switched to a template string." });
    expect(reported).toEqual([{ thread: "T1", addressed: true, note: "Now a template string." }]);
    expect(replies.map((reply) => [reply.threadId, reply.resolve])).toEqual([
      ["thread-template", true],
      ["thread-rename", false],
    ]);
    expect(replies[1]?.body).toContain("did not say it addressed this thread");
  });

  it("claude-code: an agent that reports nothing still succeeds and leaves every thread open, said once", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-answer.jsonl",
      cwd,
    });

    const { result, reported, replies } = await round(claudeCode(cli.path));

    expect(result.success).toBe(true);
    expect(reported).toBeUndefined();
    expect(replies).toEqual([]);
    expect(unreportedThreadsNote(THREADS.length, reported)).toBe(
      "The agent did not report which review threads it addressed, so all 2 review threads are left open for you to check.",
    );
    expect(events).toContainEqual({
      type: "warning",
      message: expect.stringContaining("the agent gave no `report_threads` answer") as unknown,
    });
  });

  it("acp: the final JSON reports one of two threads, and only that one resolves", async () => {
    const { result, reported, replies } = await round(acp("report-threads"));

    expect(result).toMatchObject({ success: true, summary: "Switched to a template string." });
    expect(reported).toEqual([{ thread: "T1", addressed: true, note: "Now a template string." }]);
    expect(replies.map((reply) => [reply.threadId, reply.resolve])).toEqual([
      ["thread-template", true],
      ["thread-rename", false],
    ]);
  });

  it("acp: an agent whose final answer is prose reports nothing, succeeds, and leaves every thread open", async () => {
    const { result, reported, replies } = await round(acp("explain"));

    expect(result).toMatchObject({ success: true });
    expect(result.summary).toContain("The greeting is built in");
    expect(reported).toBeUndefined();
    expect(replies).toEqual([]);
  });
});

describe("the note when no thread was reported", () => {
  it("is empty when the agent reported, or the round had no threads", () => {
    expect(unreportedThreadsNote(2, [])).toBe("");
    expect(unreportedThreadsNote(0, undefined)).toBe("");
    expect(unreportedThreadsNote(1, undefined)).toContain("so its review thread is left open");
  });
});
