/** The built-in tools as the loop sees them: all of them, or the read-only ones for plan, review and ask, plus the task's own. */
import type { Toolbox } from "./agent-loop.ts";
import type { AgentTool } from "./tool.ts";
import { builtinTools, readOnlyTools, runTool, toolDefinitions } from "./tools/registry.ts";

export function registryToolbox(readOnly: boolean, extra: readonly AgentTool[] = []): Toolbox {
  const tools = [...(readOnly ? readOnlyTools() : builtinTools()), ...extra];
  return {
    definitions: toolDefinitions(tools),
    run: (name, input, context) => runTool(tools, name, input, context),
  };
}
