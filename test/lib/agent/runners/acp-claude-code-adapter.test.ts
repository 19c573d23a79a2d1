/**
 * A real, published ACP adapter — Zed's `@zed-industries/claude-code-acp`, which runs Claude Code
 * through the Claude Agent SDK — driven by the ACP runner the way a user's config would start it,
 * against the Anthropic stand-in (`ANTHROPIC_BASE_URL`). Nothing here was written for Locus: the
 * adapter routes Claude Code's file and shell tools to the client's `fs/*` and `terminal/*`, so the
 * worktree's confinement and the shell policy apply to a real agent.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAnthropicFake, type AnthropicFake } from "../../../../sandbox/anthropic-fake/server.ts";
import { call, reply, say } from "../../../../sandbox/anthropic-fake/script.ts";
import type { FakeReply, FakeTurn, RecordedRequest } from "../../../../sandbox/anthropic-fake/types.ts";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import { DEFAULT_SHELL_DENY } from "../../../../lib/config/index.ts";
import { NODE_WITH_COMPILE_CACHE } from "../../../node-with-compile-cache.ts";

const ADAPTER = join(
  dirname(createRequire(import.meta.url).resolve("@zed-industries/claude-code-acp/package.json")),
  "dist",
  "index.js",
);

let dir: string;
let cwd: string;
let fake: AnthropicFake;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-claude-acp-"));
  cwd = join(dir, "worktree");
  await mkdir(join(cwd, "src"), { recursive: true });
  await mkdir(join(dir, "home"));
  await writeFile(
    join(cwd, "src", "greet.js"),
    'export function greet(name) {\n  return "Hello, " + name;\n}\n',
  );
});

afterEach(async () => {
  await fake.close();
  // The adapter's group is killed as the run ends; a dying process may still be closing files in its home.
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** Claude Code's side calls (a one-word "count" warm-up on a small model) get a short answer; the task's turns play in order. */
function claudeCodeScript(steps: readonly FakeReply[]): FakeTurn[] {
  let next = 0;
  const turn = (request: RecordedRequest): FakeReply => {
    const body = request.body as { model?: string };
    if (!String(body.model).includes("sonnet")) return reply(say("ok"));
    return steps[next++] ?? reply(say("Nothing left to do."));
  };
  return Array.from({ length: steps.length + 4 }, () => turn);
}

function toolResults(requests: readonly RecordedRequest[]): string[] {
  const last = requests.at(-1)?.body as { messages?: { content?: unknown }[] } | undefined;
  return (last?.messages ?? []).flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block: { type?: string; content?: unknown }) =>
          block.type === "tool_result" ? [JSON.stringify(block.content)] : [],
        )
      : [],
  );
}

describe("acp runner with Claude Code's ACP adapter", () => {
  it("edits through Locus's file boundary and is refused a denied command", async () => {
    const file = join(cwd, "src", "greet.js");
    fake = await startAnthropicFake({
      script: claudeCodeScript([
        reply(call("mcp__acp__Read", { file_path: file })),
        reply(call("mcp__acp__Edit", { file_path: file, old_string: '"Hello, "', new_string: '"Hi, "' })),
        reply(
          call("mcp__acp__Bash", { command: "git push origin main", description: "Push", timeout: 30000 }),
        ),
        reply(
          call("mcp__acp__Bash", { command: "cat src/greet.js", description: "Show it", timeout: 30000 }),
        ),
        reply(say("Greeting now says Hi.")),
      ]),
    });
    const events: AgentEvent[] = [];
    const runner = createRunner("acp", {
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: join(dir, "home"),
        ANTHROPIC_API_KEY: "sk-ant-api03-adapterTestKey0123456789",
        ANTHROPIC_BASE_URL: fake.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        GITHUB_TOKEN: "ghs_mustNotReachTheAgent0123456789",
      },
      shell: { allow: ["*"], deny: [...DEFAULT_SHELL_DENY], timeoutSeconds: 30 },
      acp: {
        command: [...NODE_WITH_COMPILE_CACHE, ADAPTER],
        env: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
      },
    });

    const result = await runner.execute({
      prompt: { system: "Follow the repository's rules.", context: "", task: "Make greet say Hi." },
      cwd,
      model: "claude-sonnet-4-6",
      maxTurns: 20,
      timeLimitMs: 120_000,
      onEvent: (event) => events.push(event),
    });

    expect(result).toMatchObject({ success: true, stop: "finished", summary: "Greeting now says Hi." });
    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toContain('"Hi, "');
    expect(result.filesChanged).toEqual(["src/greet.js"]);
    expect(result.toolCalls.map((call) => `${call.name} ${call.ok ? "ok" : "failed"}`)).toEqual([
      "read_file ok",
      "edit_file ok",
      "refused failed",
      "run_shell failed",
      "run_shell ok",
    ]);
    const results = toolResults(fake.requests);
    expect(results.some((text) => text.includes("matches the repository's denied shell pattern"))).toBe(true);
    expect(results.some((text) => text.includes("Exited with code 0") && text.includes("Hi, "))).toBe(true);
    const completed = events.filter((event) => event.type === "tool_completed");
    expect(completed.find((event) => event.tool === "edit_file")).toMatchObject({ ok: true });
    // Every model call went to the stand-in, with the adapter's own tools routed to the client.
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("mcp__acp__Edit");
  }, 180_000);
});
