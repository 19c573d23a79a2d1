/** The built-in tools, their Anthropic definitions, and the one safe way to call a tool by name. */
import type { Tool } from "@anthropic-ai/sdk/resources/messages";
import { z } from "zod";
import type { AgentTool, ToolContext, ToolResult } from "../tool.ts";
import { askUserTool } from "./ask-user.ts";
import { editFileTool } from "./edit-file.ts";
import { finishTool } from "./finish.ts";
import { listFilesTool } from "./list-files.ts";
import { readFileTool } from "./read-file.ts";
import { errorResult } from "./results.ts";
import { runShellTool } from "./run-shell.ts";
import { searchTextTool } from "./search-text.ts";
import { writeFileTool } from "./write-file.ts";

/** Every tool of the built-in engine, in the order the model sees them. */
export function builtinTools(): AgentTool[] {
  return [
    listFilesTool,
    readFileTool,
    searchTextTool,
    editFileTool,
    writeFileTool,
    runShellTool,
    askUserTool,
    finishTool,
  ] as AgentTool[];
}

/** The tools of plan, review and ask modes: nothing that writes or runs commands. */
export function readOnlyTools(): AgentTool[] {
  return builtinTools().filter((tool) => tool.readOnly);
}

/** The `tools` parameter of a Messages API request. */
export function toolDefinitions(tools: readonly AgentTool[]): Tool[] {
  return tools.map((tool) => {
    const { $schema: _schema, ...schema } =
      tool.inputJsonSchema ?? z.toJSONSchema(tool.inputSchema, { io: "input" });
    return {
      name: tool.name,
      description: tool.description,
      input_schema: { ...schema, type: "object" },
    };
  });
}

/**
 * Validates the model's input and runs the tool. Never throws: an unknown tool, an invalid input
 * or a tool that fails unexpectedly becomes an error result the model can act on.
 */
export async function runTool(
  tools: readonly AgentTool[],
  name: string,
  rawInput: unknown,
  context: ToolContext,
): Promise<ToolResult> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    return errorResult(
      `Unknown tool ${name}`,
      `There is no tool named "${name}". Available tools: ${tools.map((candidate) => candidate.name).join(", ")}.`,
    );
  }
  const parsed = tool.inputSchema.safeParse(rawInput);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length === 0 ? "input" : issue.path.join(".");
      return `- ${where}: ${issue.message}`;
    });
    return errorResult(
      `${name}: invalid input`,
      `Invalid input for ${name}:\n${problems.join("\n")}\nExpected: ${JSON.stringify(toolDefinitions([tool])[0]?.input_schema)}`,
    );
  }
  try {
    return await tool.run(parsed.data, context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(`${name} failed`, `${name} failed unexpectedly: ${message}`);
  }
}
