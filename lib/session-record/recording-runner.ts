/**
 * Records every session a runner executes: wraps the runner so each `execute` first writes its
 * prompts, then passes each event to the record before the caller's own listener. Subscribing
 * here, once, covers every mode and provider (built-in, Claude Code, Codex, ACP) without
 * threading the record through the task code.
 */
import { z } from "zod";
import type { AgentRunner } from "../agent/runner.ts";
import type { RecordWriter } from "./record-writer.ts";

export function recordingRunner(runner: AgentRunner, record: RecordWriter): AgentRunner {
  return {
    name: runner.name,
    isAvailable: () => runner.isAvailable(),
    version: () => runner.version(),
    execute: (options) => {
      record.writePrompts({
        ...options.prompt,
        tools: (options.tools ?? []).map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputJsonSchema ?? z.toJSONSchema(tool.inputSchema, { io: "input" }),
        })),
      });
      return runner.execute({
        ...options,
        onEvent: (event) => {
          record.onEvent(event);
          options.onEvent?.(event);
        },
      });
    },
  };
}
