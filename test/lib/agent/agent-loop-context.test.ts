import Anthropic from "@anthropic-ai/sdk";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop, type LoopDependencies } from "../../../lib/agent/agent-loop.ts";
import { DEFAULT_TRIM_POLICY, type TrimPolicy } from "../../../lib/agent/context-trim.ts";
import type { AgentTool } from "../../../lib/agent/tool.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { startAnthropicFake, type AnthropicFake } from "../../../sandbox/anthropic-fake/server.ts";
import type { FakeTurn } from "../../../sandbox/anthropic-fake/types.ts";

const readFileTool: AgentTool = {
  name: "read_file",
  description: "Read a file of the worktree.",
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  async run(input, context) {
    const { path } = input as { path: string };
    const text = await readFile(join(context.cwd, path), "utf8");
    return { content: text, isError: false, summary: `Read ${path} (${text.split("\n").length} lines)` };
  },
};

let fake: AnthropicFake;
let cwd: string;

function deps(trim: TrimPolicy = DEFAULT_TRIM_POLICY): LoopDependencies {
  return {
    client: new Anthropic({ apiKey: "sk-ant-test", baseURL: fake.url, maxRetries: 0 }),
    toolbox: {
      definitions: [
        {
          name: "read_file",
          description: readFileTool.description,
          input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
      ],
      run: (_name, input, context) => readFileTool.run(input, context),
    },
    shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
    hooks: [],
    env: {},
    maxTokens: 4096,
    trim,
    sleep: () => Promise.resolve(),
    now: Date.now,
  };
}

// About 2,000 tokens of repository context: above the 1,024-token minimum a prefix needs to be cached.
const CONTEXT = Array.from({ length: 240 }, (_, i) => `src/module-${i}.ts  (${40 + i} lines)`).join("\n");

function run(maxTurns = 20) {
  return runAgentLoop(deps(), {
    prompt: { system: "You are Locus.", context: CONTEXT, task: "Tidy the modules" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns,
  });
}

function messagesOf(index: number): Anthropic.MessageParam[] {
  return (fake.requests[index]?.body as { messages: Anthropic.MessageParam[] }).messages;
}

function withoutCacheControl(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (key === "cache_control" ? undefined : v));
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-context-"));
  await writeFile(join(cwd, "small.ts"), "export const x = 1;\n");
  await writeFile(join(cwd, "big.txt"), `${"a line of a large generated file\n".repeat(120)}`);
});

afterEach(async () => {
  await fake.close();
  await rm(cwd, { recursive: true, force: true });
});

describe("agent loop: prompt caching", () => {
  it("marks tools, system and the two latest user turns: each turn reads the previous turn's prefix", async () => {
    const turns: FakeTurn[] = [
      ...Array.from({ length: 5 }, () => reply(call("read_file", { path: "small.ts" }))),
      reply(call("finish", { summary: "done" })),
    ];
    // No lookback: the explicit breakpoints alone must find the previous turn's prefix.
    fake = await startAnthropicFake({ script: turns, cache: { lookbackBlocks: 0 } });

    const result = await run();

    const report = fake.cacheReport();
    expect(result.success).toBe(true);
    expect(report.turns).toHaveLength(6);
    expect(report.turns[0]?.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(report.turns[0]?.cache_read_input_tokens).toBe(0);
    for (let i = 1; i < report.turns.length; i += 1) {
      const previous = report.turns[i - 1];
      const current = report.turns[i];
      expect(current?.cache_read_input_tokens).toBeGreaterThan(previous?.cache_read_input_tokens ?? 0);
      // What the previous request wrote is exactly what this one reads.
      expect(current?.cache_read_input_tokens).toBe(
        (previous?.cache_read_input_tokens ?? 0) + (previous?.cache_creation_input_tokens ?? 0),
      );
    }
    for (const request of fake.requests) {
      const text = JSON.stringify(request.body);
      expect(text.match(/"cache_control"/g)?.length ?? 0).toBeLessThanOrEqual(4);
    }
    expect(result.usage.cacheReadTokens).toBe(report.totals.cache_read_input_tokens);
    expect(result.usage.cacheWriteTokens).toBe(report.totals.cache_creation_input_tokens);
    expect(result.usage.inputTokens).toBe(report.totals.input_tokens);
  });
});

describe("agent loop: two-tier context", () => {
  it("replaces old bulky results by their summaries, in batches that keep the cache mostly intact", async () => {
    const turns: FakeTurn[] = [
      ...Array.from({ length: 8 }, () => reply(call("read_file", { path: "big.txt" }))),
      reply(call("finish", { summary: "done" })),
    ];
    fake = await startAnthropicFake({ script: turns });

    const result = await runAgentLoop(deps({ thresholdTokens: 1500, keepTurns: 1, minBatchTokens: 1900 }), {
      prompt: { system: "You are Locus.", context: CONTEXT, task: "Read it all" },
      cwd,
      model: "claude-sonnet-4-6",
      maxTurns: 20,
    });

    expect(result.success).toBe(true);
    const trimmedIn = (index: number) =>
      messagesOf(index).filter((m) => JSON.stringify(m.content).includes("[output trimmed to save context]"))
        .length;
    expect(fake.requests.map((_, i) => trimmedIn(i))).toEqual([0, 0, 0, 2, 2, 4, 4, 6, 6]);
    const last = messagesOf(8);
    expect(JSON.stringify(last[2]?.content)).toContain(
      "[output trimmed to save context] Read big.txt (121 lines) (run the tool again if you need the full output)",
    );
    // The newest result is always sent in full.
    expect(JSON.stringify(last.at(-1)?.content)).toContain("a line of a large generated file");

    // A rewrite of what an earlier request sent happens only when a batch is trimmed.
    const rewrites = fake.requests.slice(1).filter((_, i) => {
      const before = messagesOf(i);
      const after = messagesOf(i + 1).slice(0, before.length);
      return withoutCacheControl(before) !== withoutCacheControl(after);
    });
    expect(rewrites).toHaveLength(3);
    const report = fake.cacheReport();
    expect(report.turns[4]?.cache_read_input_tokens).toBeGreaterThan(
      report.turns[3]?.cache_read_input_tokens ?? 0,
    );
  });
});
