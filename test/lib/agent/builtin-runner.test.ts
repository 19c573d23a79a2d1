import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../lib/agent/events.ts";
import { createRunner, ProviderUnavailableError } from "../../../lib/agent/create-runner.ts";
import { call, reply, say } from "../../../sandbox/anthropic-fake/script.ts";
import { startAnthropicFake, type AnthropicFake } from "../../../sandbox/anthropic-fake/server.ts";

let fake: AnthropicFake;
let cwd: string;

const CONTEXT = Array.from({ length: 240 }, (_, i) => `src/module-${i}.ts  (${40 + i} lines)`).join("\n");

function runner(env: Record<string, string | undefined> = {}) {
  return createRunner("builtin", {
    env: {
      PATH: process.env["PATH"],
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: fake.url,
      ...env,
    },
    shell: { allow: ["*"], deny: ["git push*"], timeoutSeconds: 30 },
    sleep: () => Promise.resolve(),
  });
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-builtin-"));
  await writeFile(join(cwd, "greet.js"), 'export function greet(name) {\n  return "helo " + name;\n}\n');
});

afterEach(async () => {
  await fake.close();
  await rm(cwd, { recursive: true, force: true });
});

describe("builtin runner", () => {
  it("runs a 10-turn task with every built-in tool and reports cost and cache figures", async () => {
    fake = await startAnthropicFake({
      script: [
        reply(say("Let me look around."), call("list_files", {})),
        reply(call("read_file", { path: "greet.js" })),
        reply(call("search_text", { pattern: "helo" })),
        reply(call("edit_file", { path: "greet.js", old_text: '"helo "', new_text: '"hello "' })),
        reply(call("write_file", { path: "greet.test.js", content: "// greeting tests\n" })),
        reply(call("run_shell", { command: "grep -c hello greet.js" })),
        reply(call("search_text", { pattern: "hello" })),
        reply(call("read_file", { path: "greet.test.js" })),
        reply(call("run_shell", { command: "ls" })),
        reply(
          say("All checks pass."),
          call("finish", { summary: "Fixed the greeting typo and added a test file." }),
        ),
      ],
    });
    const events: AgentEvent[] = [];

    const result = await runner().execute({
      prompt: { system: "You are Locus.", context: CONTEXT, task: "Fix the greeting typo in greet.js" },
      cwd,
      model: "claude-sonnet-4-6",
      maxTurns: 20,
      onEvent: (event) => events.push(event),
    });

    expect(result.success).toBe(true);
    expect(result.summary).toBe("Fixed the greeting typo and added a test file.");
    expect(result.turns).toBe(10);
    expect(result.toolCalls.map((c) => c.name)).toEqual([
      "list_files",
      "read_file",
      "search_text",
      "edit_file",
      "write_file",
      "run_shell",
      "search_text",
      "read_file",
      "run_shell",
      "finish",
    ]);
    expect(result.toolCalls.every((c) => c.ok)).toBe(true);
    expect([...result.filesChanged].sort()).toEqual(["greet.js", "greet.test.js"]);
    expect(await readFile(join(cwd, "greet.js"), "utf8")).toContain('"hello "');
    expect(result.questions).toEqual([]);

    const report = fake.cacheReport();
    expect(result.usage).toEqual({
      inputTokens: report.totals.input_tokens,
      outputTokens: report.totals.output_tokens,
      cacheReadTokens: report.totals.cache_read_input_tokens,
      cacheWriteTokens: report.totals.cache_creation_input_tokens,
    });
    for (const turn of report.turns.slice(1)) expect(turn.cache_read_input_tokens).toBeGreaterThan(0);
    // Sonnet 4.6: $3 input, $15 output, $3.75 cache write, $0.30 cache read per million tokens.
    const expected =
      (report.totals.input_tokens * 3 +
        report.totals.output_tokens * 15 +
        report.totals.cache_creation_input_tokens * 3.75 +
        report.totals.cache_read_input_tokens * 0.3) /
      1_000_000;
    expect(result.costUsd).toBeCloseTo(expected, 10);
    expect(result.usage.cacheReadTokens).toBeGreaterThan(result.usage.cacheWriteTokens);
    const edit = events.find((e) => e.type === "tool_completed" && e.tool === "edit_file");
    expect(edit?.type === "tool_completed" && edit.diff).toContain('+  return "hello " + name;');
    // The model saw every built-in tool, in the registry's order.
    const tools = (fake.requests[0]?.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toEqual([
      "list_files",
      "read_file",
      "search_text",
      "edit_file",
      "write_file",
      "run_shell",
      "ask_user",
      "finish",
    ]);
  });

  it("keeps the API key out of the agent's shell", async () => {
    fake = await startAnthropicFake({
      script: [reply(call("run_shell", { command: 'echo "key=[$ANTHROPIC_API_KEY]"' })), reply(say("ok"))],
    });

    await runner().execute({
      prompt: { system: "s", context: "", task: "t" },
      cwd,
      model: "claude-sonnet-4-6",
      maxTurns: 5,
    });

    const results = JSON.stringify(fake.requests[1]?.body);
    expect(results).toContain("key=[]");
    expect(results).not.toContain("sk-ant-test");
  });

  it("offers only read-only tools in read-only mode", async () => {
    fake = await startAnthropicFake({ script: [reply(say("Looks fine."))] });

    await runner().execute({
      prompt: { system: "s", context: "", task: "Review" },
      cwd,
      model: "claude-sonnet-4-6",
      maxTurns: 5,
      readOnly: true,
    });

    const tools = (fake.requests[0]?.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).not.toContain("edit_file");
    expect(tools).not.toContain("run_shell");
    expect(tools).toContain("finish");
  });

  it("is unavailable without an API key and says how to fix it", async () => {
    fake = await startAnthropicFake();
    const keyless = runner({ ANTHROPIC_API_KEY: undefined });

    expect(await keyless.isAvailable()).toBe(false);
    expect(await keyless.version()).toMatch(/^builtin \(@anthropic-ai\/sdk \d+\.\d+\.\d+\)$/);
    const error = await keyless
      .execute({
        prompt: { system: "", context: "", task: "t" },
        cwd,
        model: "claude-sonnet-4-6",
        maxTurns: 1,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toBe("ANTHROPIC_API_KEY is not set; pass the anthropic-api-key input");
  });
});
