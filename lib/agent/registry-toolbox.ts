/** The built-in tools as the loop sees them: all of them, or the read-only ones for plan, review and ask. */
import type { Toolbox } from "./agent-loop.ts";
import { builtinTools, readOnlyTools, runTool, toolDefinitions } from "./tools/registry.ts";

export function registryToolbox(readOnly: boolean): Toolbox {
  const tools = readOnly ? readOnlyTools() : builtinTools();
  return {
    definitions: toolDefinitions(tools),
    run: (name, input, context) => runTool(tools, name, input, context),
  };
}
