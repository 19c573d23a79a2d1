import Anthropic from "@anthropic-ai/sdk";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop, type LoopDependencies, type Toolbox } from "../../../lib/agent/agent-loop.ts";
import { DEFAULT_TRIM_POLICY } from "../../../lib/agent/context-trim.ts";
import type { AgentEvent } from "../../../lib/agent/events.ts";
import type { ExecuteOptions } from "../../../lib/agent/runner.ts";
import type { AgentTool, ToolResult } from "../../../lib/agent/tool.ts";
import { call, reply, say } from "../../../sandbox/anthropic-fake/script.ts";
import { startAnthropicFake, type AnthropicFake } from "../../../sandbox/anthropic-fake/server.ts";
import type { FakeTurn } from "../../../sandbox/anthropic-fake/types.ts";

// Small tools written for these tests against the tool contract, so the loop is tested on its own.
const readFileTool: AgentTool = {
  name: "read_file",
  description: "Read a file of the worktree.",
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  async run(input, context): Promise<ToolResult> {
    const { path } = input as { path: string };
    const text = await readFile(join(context.cwd, path), "utf8");
    return { content: text, isError: false, summary: `Read ${path} (${text.split("\n").length} lines)` };
  },
};

const editFileTool: AgentTool = {
  name: "edit_file",
  description: "Replace exact text in a file.",
  inputSchema: z.object({ path: z.string(), old_text: z.string(), new_text: z.string() }),
  readOnly: false,
  async run(input, context): Promise<ToolResult> {
    const { path, old_text, new_text } = input as { path: string; old_text: string; new_text: string };
    const file = join(context.cwd, path);
    const before = await readFile(file, "utf8");
    if (!before.includes(old_text))
      return { content: "old_text not found", isError: true, summary: `Edit ${path} failed` };
    await writeFile(file, before.replace(old_text, new_text));
    return {
      content: `Edited ${path}`,
      isError: false,
      summary: `Edit ${path}`,
      diff: `--- a/${path}\n+++ b/${path}\n-${old_text}\n+${new_text}\n`,
      filesWritten: [path],
    };
  },
};

const runShellTool: AgentTool = {
  name: "run_shell",
  description: "Run a shell command in the worktree.",
  inputSchema: z.object({ command: z.string() }),
  readOnly: false,
  run(input, context): Promise<ToolResult> {
    const { command } = input as { command: string };
    return new Promise((resolve) => {
      execFile(
        "bash",
        ["-c", command],
        { cwd: context.cwd, env: context.env, signal: context.signal },
        (error, stdout) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ content: stdout, isError: code !== 0, summary: `Bash ${command} → exit ${code}` });
        },
      );
    });
  },
};

const askUserTool: AgentTool = {
  name: "ask_user",
  description: "Ask the user a question.",
  inputSchema: z.object({ question: z.string() }),
  readOnly: true,
  run(input, context): Promise<ToolResult> {
    const { question } = input as { question: string };
    context.onQuestion(question);
    return Promise.resolve({
      content: "Recorded; continue with your best judgement.",
      isError: false,
      summary: "Asked",
    });
  },
};

const finishTool: AgentTool = {
  name: "finish",
  description: "End the task with a summary.",
  inputSchema: z.object({ summary: z.string() }),
  readOnly: true,
  run: () => Promise.resolve({ content: "", isError: false, summary: "Finished" }),
};

function toolbox(tools: readonly AgentTool[]): Toolbox {
  return {
    definitions: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: z.toJSONSchema(tool.inputSchema) as Anthropic.Tool.InputSchema,
    })),
    async run(name, input, context) {
      const tool = tools.find((t) => t.name === name);
      if (!tool) return { content: `unknown tool ${name}`, isError: true, summary: `Unknown tool ${name}` };
      const parsed = tool.inputSchema.safeParse(input);
      if (!parsed.success)
        return { content: parsed.error.message, isError: true, summary: `${name}: bad input` };
      return tool.run(parsed.data, context);
    },
  };
}

const TOOLS = [readFileTool, editFileTool, runShellTool, askUserTool, finishTool];

let fake: AnthropicFake;
let cwd: string;
let sleeps: number[];
let events: AgentEvent[];

function deps(overrides: Partial<LoopDependencies> = {}): LoopDependencies {
  return {
    client: new Anthropic({ apiKey: "sk-ant-test", baseURL: fake.url, maxRetries: 0 }),
    toolbox: toolbox(TOOLS),
    shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
    hooks: [],
    env: { PATH: process.env["PATH"] ?? "" },
    maxTokens: 4096,
    trim: DEFAULT_TRIM_POLICY,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    now: Date.now,
    ...overrides,
  };
}

function execute(overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return {
    prompt: {
      system: "You are Locus, a careful coding agent.",
      context: "Files: src/greet.js",
      task: "Fix the greeting",
    },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 10,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
}

async function script(...turns: FakeTurn[]): Promise<void> {
  fake = await startAnthropicFake({ script: turns });
}

function sentMessages(index: number): Anthropic.MessageParam[] {
  return (fake.requests[index]?.body as { messages: Anthropic.MessageParam[] }).messages;
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-loop-"));
  await writeFile(join(cwd, "greet.js"), 'export const greet = () => "helo";\n');
  sleeps = [];
  events = [];
});

afterEach(async () => {
  await fake.close();
  await rm(cwd, { recursive: true, force: true });
});

describe("agent loop: ending a task", () => {
  it("reads, edits, runs the shell and finishes with the finish tool's summary", async () => {
    await script(
      reply(say("Reading the file."), call("read_file", { path: "greet.js" })),
      reply(call("edit_file", { path: "greet.js", old_text: '"helo"', new_text: '"hello"' })),
      reply(call("run_shell", { command: "grep -c hello greet.js" })),
      reply(say("Done."), call("finish", { summary: "Fixed the typo in greet.js" })),
    );

    const result = await runAgentLoop(deps(), execute());

    expect(result.success).toBe(true);
    expect(result.stop).toBe("finished");
    expect(result.summary).toBe("Fixed the typo in greet.js");
    expect(result.turns).toBe(4);
    expect(result.filesChanged).toEqual(["greet.js"]);
    expect(await readFile(join(cwd, "greet.js"), "utf8")).toContain('"hello"');
    expect(result.toolCalls).toEqual([
      { name: "read_file", target: "greet.js", ok: true, summary: "Read greet.js (2 lines)" },
      { name: "edit_file", target: "greet.js", ok: true, summary: "Edit greet.js" },
      {
        name: "run_shell",
        target: "grep -c hello greet.js",
        ok: true,
        summary: "Bash grep -c hello greet.js → exit 0",
      },
      { name: "finish", target: "", ok: true, summary: "Finished" },
    ]);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.costUsd).toBeGreaterThan(0);
    // The shell's output went back to the model as the result of its call.
    const lastUser = sentMessages(3).at(-1)?.content as Anthropic.ToolResultBlockParam[];
    expect(lastUser[0]?.type).toBe("tool_result");
    expect(lastUser[0]?.content).toBe("1\n");
    const edit = events.find((e) => e.type === "tool_completed" && e.tool === "edit_file");
    expect(edit).toMatchObject({ ok: true, summary: "Edit greet.js" });
    expect(edit?.type === "tool_completed" && edit.diff).toContain('+"hello"');
    expect(events[0]).toMatchObject({ type: "start", runner: "builtin", model: "claude-sonnet-4-6" });
    expect(events.filter((e) => e.type === "turn")).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: "done", success: true, stats: { turns: 4, tools: 4 } });
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e.type === "text_delta" ? e.content : ""))
        .join(""),
    ).toBe("Reading the file.Done.");
  });

  it("ends at a turn without tool calls, with its text as the summary", async () => {
    await script(reply(say("Nothing to change: the greeting is already correct.")));

    const result = await runAgentLoop(deps(), execute());

    expect(result).toMatchObject({
      success: true,
      stop: "end_turn",
      summary: "Nothing to change: the greeting is already correct.",
      turns: 1,
    });
    expect(result.error).toBeUndefined();
  });

  it("ends the run after a turn that asks, with every question of that turn", async () => {
    await script(
      reply(
        say("Two things are unclear."),
        call("ask_user", { question: "Should greet take a name?" }),
        call("ask_user", { question: "Which language?" }),
      ),
      reply(say("Proceeding.")),
    );

    const result = await runAgentLoop(deps(), execute());

    expect(result).toMatchObject({
      success: true,
      stop: "asked",
      turns: 1,
      summary: "Two things are unclear.",
    });
    expect(result.questions).toEqual(["Should greet take a name?", "Which language?"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("stops at max turns with a clear error", async () => {
    const again = reply(call("read_file", { path: "greet.js" }));
    await script(again, again, again);

    const result = await runAgentLoop(deps(), execute({ maxTurns: 2 }));

    expect(result).toMatchObject({ success: false, stop: "max_turns", turns: 2 });
    expect(result.error).toBe("stopped after 2 turns (max turns) before finishing");
    expect(fake.requests).toHaveLength(2);
    expect(events.at(-2)).toMatchObject({ type: "error", retryable: false });
  });

  it("stops at the wall-clock limit", async () => {
    let now = 0;
    const slowTool: AgentTool = {
      ...readFileTool,
      run: (input, ctx) => ((now += 10 * 60_000), readFileTool.run(input, ctx)),
    };
    const again = reply(call("read_file", { path: "greet.js" }));
    await script(again, again, again);

    const result = await runAgentLoop(
      deps({ now: () => now, toolbox: toolbox([slowTool, finishTool]) }),
      execute({ timeLimitMs: 15 * 60_000 }),
    );

    expect(result).toMatchObject({ success: false, stop: "time_limit", turns: 2 });
    expect(result.error).toBe("time limit of 15 min reached");
  });

  it("stops cleanly at the cost cap, before running the turn's tools", async () => {
    await script(reply(call("edit_file", { path: "greet.js", old_text: '"helo"', new_text: '"hello"' })));

    const result = await runAgentLoop(deps(), execute({ maxCostUsd: 0.000001 }));

    expect(result).toMatchObject({ success: false, stop: "cost_limit", turns: 1 });
    expect(result.error).toMatch(/^cost limit reached: \$0\.\d{4} spent, limit \$0\.00$/);
    expect(result.toolCalls).toEqual([]);
    expect(await readFile(join(cwd, "greet.js"), "utf8")).toContain('"helo"');
  });

  it("reports an unknown model's cost as 0 with a warning", async () => {
    await script(reply(say("ok")));

    const result = await runAgentLoop(deps(), execute({ model: "claude-unreleased-9" }));

    expect(result.costUsd).toBe(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(events).toContainEqual({
      type: "warning",
      message:
        "no price known for model claude-unreleased-9: cost is reported as 0 and no cost limit is enforced",
    });
  });
});

describe("agent loop: resilience", () => {
  it("retries 529 overloaded with 1, 2, 4 s backoff, then succeeds", async () => {
    await script({ status: 529 }, { status: 529 }, { status: 529 }, reply(say("Recovered.")));

    const result = await runAgentLoop(deps(), execute());

    expect(result).toMatchObject({ success: true, summary: "Recovered." });
    expect(sleeps).toEqual([1000, 2000, 4000]);
    const retries = events.filter((e) => e.type === "error");
    expect(
      retries.map((e) => (e.type === "error" ? [e.attempt, e.retryInSeconds, e.retryable] : [])),
    ).toEqual([
      [1, 1, true],
      [2, 2, true],
      [3, 4, true],
    ]);
    expect(retries[0]).toMatchObject({ message: "529 overloaded_error: Overloaded" });
  });

  it("gives up after 5 retries with a retryable error", async () => {
    await script(...Array.from({ length: 6 }, () => ({ status: 529 })));

    const result = await runAgentLoop(deps(), execute());

    expect(result).toMatchObject({ success: false, stop: "api_error", turns: 0 });
    expect(result.error).toBe("529 overloaded_error: Overloaded (gave up after 5 retries)");
    expect(sleeps).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(fake.requests).toHaveLength(6);
    expect(events.at(-2)).toMatchObject({ type: "error", retryable: true });
    expect(events.at(-2)).not.toHaveProperty("attempt");
  });

  it("honours a longer retry-after on 429 and retries a 500", async () => {
    await script({ status: 429, headers: { "retry-after": "7" } }, { status: 500 }, reply(say("ok")));

    const result = await runAgentLoop(deps(), execute());

    expect(result.success).toBe(true);
    expect(sleeps).toEqual([7000, 2000]);
  });

  it("does not retry a 400", async () => {
    await script({ status: 400 });

    const result = await runAgentLoop(deps(), execute());

    expect(result).toMatchObject({ success: false, stop: "api_error" });
    expect(result.error).toBe("400 invalid_request_error: Invalid request");
    expect(sleeps).toEqual([]);
    expect(events.at(-2)).toMatchObject({ type: "error", retryable: false });
  });

  it("keeps the partial text of a stream cut mid-response and retries the same turn", async () => {
    const answer = reply(say("I will read greet.js now."), call("read_file", { path: "greet.js" }));
    await script({ dropAfterEvents: 4, response: answer }, answer, reply(say("All good.")));

    const result = await runAgentLoop(deps(), execute());

    expect(result).toMatchObject({ success: true, summary: "All good.", turns: 2 });
    const retry = events.find((e) => e.type === "error");
    expect(retry).toMatchObject({ retryable: true, attempt: 1, retryInSeconds: 1 });
    expect(retry?.type === "error" && retry.partialText).toBeTruthy();
    expect(
      "I will read greet.js now.".startsWith(retry?.type === "error" ? (retry.partialText ?? "") : ""),
    ).toBe(true);
    expect(fake.requests[1]?.body).toEqual(fake.requests[0]?.body);
  });

  it("retries an overloaded error event sent mid-stream", async () => {
    await script(
      { streamErrorAfterEvents: 3, error: { type: "overloaded_error", message: "Overloaded" } },
      reply(say("ok")),
    );

    const result = await runAgentLoop(deps(), execute());

    expect(result.success).toBe(true);
    expect(sleeps).toEqual([1000]);
  });

  it("aborts while the model is streaming", async () => {
    const controller = new AbortController();
    await script(reply(say("A long answer that is being streamed in several pieces.")));

    const result = await runAgentLoop(
      deps(),
      execute({
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === "text_delta") controller.abort();
        },
      }),
    );

    expect(result).toMatchObject({ success: false, stop: "aborted", error: "aborted" });
    expect(events.at(-1)).toMatchObject({ type: "done", success: false });
  });

  it("aborts a running shell command and stops", async () => {
    const controller = new AbortController();
    await script(reply(call("run_shell", { command: "sleep 30" })));
    const started = Date.now();

    const result = await runAgentLoop(
      deps(),
      execute({
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === "tool_started") setImmediate(() => controller.abort());
        },
      }),
    );

    expect(result).toMatchObject({ success: false, stop: "aborted" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(events.some((e) => e.type === "tool_completed")).toBe(false);
  });

  it("aborts during a backoff wait", async () => {
    const controller = new AbortController();
    await script({ status: 529 }, reply(say("never")));

    const result = await runAgentLoop(
      deps({
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => reject(new Error("aborted")));
            controller.abort();
          }),
      }),
      execute({ signal: controller.signal }),
    );

    expect(result).toMatchObject({ success: false, stop: "aborted" });
    expect(fake.requests).toHaveLength(1);
  });
});
