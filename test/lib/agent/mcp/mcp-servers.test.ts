import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import type { McpServerSettings } from "../../../../lib/agent/mcp/mcp-server-settings.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import type { ExecuteOptions } from "../../../../lib/agent/runner.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { startAnthropicFake, type AnthropicFake } from "../../../../sandbox/anthropic-fake/server.ts";
import { NODE_WITH_COMPILE_CACHE } from "../../../node-with-compile-cache.ts";

const SERVER = join(import.meta.dirname, "fixtures", "glossary-mcp-server.ts");
const glossary: McpServerSettings = {
  name: "glossary",
  command: [...NODE_WITH_COMPILE_CACHE, SERVER, "{worktree}"],
  env: ["GLOSSARY_TOKEN"],
  required: false,
};

let fake: AnthropicFake;
let cwd: string;
let events: AgentEvent[];

function runner(mcpServers: readonly McpServerSettings[]) {
  return createRunner("builtin", {
    env: {
      PATH: process.env["PATH"],
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: fake.url,
      GLOSSARY_TOKEN: "glossary-secret-value",
      GITHUB_TOKEN: "ghs_notForTheServer0123456789",
    },
    shell: { allow: ["*"], deny: ["git push*"], timeoutSeconds: 30 },
    sleep: () => Promise.resolve(),
    mcpServers,
  });
}

function execute(overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return {
    prompt: { system: "You are Locus.", context: "", task: "Explain what a worktree is." },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 5,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
}

/** What the model was told each tool returned, in the last request. */
function toolResults(): string[] {
  const body = fake.requests.at(-1)?.body as { messages: { content: unknown }[] };
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block: { type?: string; content?: unknown }) =>
          block.type === "tool_result" ? [JSON.stringify(block.content)] : [],
        )
      : [],
  );
}

function toolNames(request = 0): string[] {
  const body = fake.requests[request]?.body as { tools: { name: string }[] };
  return body.tools.map((tool) => tool.name);
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-mcp-"));
  events = [];
});

afterEach(async () => {
  await fake.close();
  await rm(cwd, { recursive: true, force: true });
});

describe("MCP servers for the built-in runner", () => {
  it("offers a stdio server's tools namespaced, with its schema, and passes the model its bounded results", async () => {
    fake = await startAnthropicFake({
      script: [
        reply(call("mcp__glossary__lookup", { term: "worktree" })),
        reply(call("mcp__glossary__huge", {})),
        reply(call("finish", { summary: "Explained worktrees." })),
      ],
    });

    const result = await runner([glossary]).execute(execute());

    expect(result).toMatchObject({ success: true, summary: "Explained worktrees." });
    expect(toolNames()).toEqual(expect.arrayContaining(["mcp__glossary__lookup", "mcp__glossary__record"]));
    const lookup = (
      fake.requests[0]?.body as { tools: { name: string; input_schema: unknown }[] }
    ).tools.find((tool) => tool.name === "mcp__glossary__lookup");
    expect(lookup?.input_schema).toMatchObject({ type: "object", properties: { term: { type: "string" } } });
    const [looked, huge] = toolResults();
    expect(looked).toContain("A worktree is a second checkout");
    // The secret config names reaches the server; nothing else does.
    expect(looked).toContain("token: present; github token: absent");
    expect(huge?.length).toBeLessThan(101_000);
    expect(huge).toContain("more characters not shown");
    expect(result.toolCalls.map((call) => call.name)).toEqual([
      "mcp__glossary__lookup",
      "mcp__glossary__huge",
      "finish",
    ]);
    const card = events.find(
      (event) => event.type === "tool_completed" && event.tool === "mcp__glossary__lookup",
    );
    expect(card).toMatchObject({
      ok: true,
      summary: expect.stringMatching(/^MCP glossary\/lookup → ok/) as string,
    });
  });

  it("gives read-only runs only the tools a server marks read-only", async () => {
    fake = await startAnthropicFake({ script: [reply(call("finish", { summary: "Nothing to change." }))] });

    await runner([glossary]).execute(execute({ readOnly: true }));

    expect(toolNames()).toContain("mcp__glossary__lookup");
    expect(toolNames()).not.toContain("mcp__glossary__record");
  });

  it("reports a server that fails to start once and goes on without it", async () => {
    fake = await startAnthropicFake({
      script: [
        reply(call("mcp__glossary__record", { note: "hi" })),
        reply(call("finish", { summary: "Done." })),
      ],
    });
    const broken: McpServerSettings = {
      name: "broken",
      command: "locus-no-such-mcp-server",
      env: [],
      required: false,
    };

    const result = await runner([broken, glossary]).execute(execute());

    expect(result.success).toBe(true);
    expect(await readFile(join(cwd, "note.txt"), "utf8")).toBe("hi");
    const warnings = events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
    expect(warnings.filter((message) => message.includes("broken"))).toHaveLength(1);
    expect(warnings[0]).toMatch(/^MCP server broken did not start; the task goes on without it: /);
  });

  it("stops before any model call when a required server fails to start", async () => {
    fake = await startAnthropicFake({ script: [] });
    const broken: McpServerSettings = {
      name: "broken",
      command: "locus-no-such-mcp-server",
      env: [],
      required: true,
    };

    const result = await runner([broken]).execute(execute());

    expect(result).toMatchObject({ success: false, stop: "failed" });
    expect(result.error).toMatch(/^the required MCP server broken did not start: /);
    expect(fake.requests).toHaveLength(0);
  });
});
