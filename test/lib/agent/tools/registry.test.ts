import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QUESTION_RECORDED } from "../../../../lib/agent/tools/ask-user.ts";
import {
  builtinTools,
  readOnlyTools,
  runTool,
  toolDefinitions,
} from "../../../../lib/agent/tools/registry.ts";
import type { AgentTool } from "../../../../lib/agent/tool.ts";
import { z } from "zod";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
});
afterEach(() => worktree.cleanup());

describe("tool registry", () => {
  it("has the tools docs/contracts.md names, and read-only ones for plan/review/ask", () => {
    expect(builtinTools().map((tool) => tool.name)).toEqual([
      "list_files",
      "read_file",
      "search_text",
      "edit_file",
      "write_file",
      "run_shell",
      "ask_user",
      "finish",
    ]);
    expect(readOnlyTools().map((tool) => tool.name)).toEqual([
      "list_files",
      "read_file",
      "search_text",
      "finish",
    ]);
  });

  it("turns zod schemas into Anthropic tool definitions", () => {
    const definitions = toolDefinitions(builtinTools());
    const edit = definitions.find((definition) => definition.name === "edit_file");
    expect(edit?.input_schema).toMatchObject({
      type: "object",
      required: ["path", "old_text", "new_text"],
      properties: {
        path: { type: "string" },
        old_text: { type: "string" },
        new_text: { type: "string" },
        replace_all: { type: "boolean" },
      },
    });
    expect(edit?.input_schema).not.toHaveProperty("$schema");
    for (const definition of definitions) {
      expect(definition.description?.length).toBeGreaterThan(20);
      expect(definition.input_schema.type).toBe("object");
    }
    const inputs = Object.fromEntries(
      definitions.map((definition) => [
        definition.name,
        Object.keys(definition.input_schema.properties as object),
      ]),
    );
    expect(inputs).toEqual({
      list_files: ["path", "glob", "limit"],
      read_file: ["path", "start_line", "end_line"],
      search_text: ["pattern", "path", "regex", "limit"],
      edit_file: ["path", "old_text", "new_text", "replace_all"],
      write_file: ["path", "content"],
      run_shell: ["command", "timeout_s"],
      ask_user: ["question"],
      finish: ["summary", "threads"],
    });
  });

  it("returns an error result for an unknown tool", async () => {
    const result = await runTool(
      readOnlyTools(),
      "write_file",
      { path: "a", content: "b" },
      worktree.context(),
    );
    expect(result).toEqual({
      content:
        'There is no tool named "write_file". Available tools: list_files, read_file, search_text, finish.',
      isError: true,
      summary: "Unknown tool write_file",
    });
  });

  it("returns an error result the model can act on for invalid input", async () => {
    const result = await runTool(builtinTools(), "read_file", { path: 3, start_line: 0 }, worktree.context());
    expect(result.isError).toBe(true);
    expect(result.summary).toBe("read_file: invalid input");
    expect(result.content).toContain(
      "Invalid input for read_file:\n- path: Invalid input: expected string, received number\n- start_line:",
    );
    expect(result.content).toContain('Expected: {"type":"object"');
    const notObject = await runTool(builtinTools(), "finish", "done", worktree.context());
    expect(notObject.content).toContain("- input: Invalid input: expected object, received string");
  });

  it("turns a tool that throws into an error result", async () => {
    const broken: AgentTool = {
      name: "broken",
      description: "always fails",
      inputSchema: z.object({}),
      readOnly: true,
      run: () => Promise.reject(new Error("disk on fire")),
    };
    const result = await runTool([broken], "broken", {}, worktree.context());
    expect(result).toEqual({
      content: "broken failed unexpectedly: disk on fire",
      isError: true,
      summary: "broken failed",
    });
  });

  it("records an ask_user question and tells the model the run ends after this turn", async () => {
    const result = await runTool(
      builtinTools(),
      "ask_user",
      { question: "Which database?" },
      worktree.context(),
    );
    expect(result).toEqual({ content: QUESTION_RECORDED, isError: false, summary: "Asked: Which database?" });
    expect(QUESTION_RECORDED).toContain("This run ends after this turn");
    expect(worktree.questions).toEqual(["Which database?"]);
  });

  it("finish returns the summary", async () => {
    const result = await runTool(
      builtinTools(),
      "finish",
      { summary: "Added greet(name); tests pass." },
      worktree.context(),
    );
    expect(result).toEqual({ content: "Added greet(name); tests pass.", isError: false, summary: "Finish" });
  });
});
