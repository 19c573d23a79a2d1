/** Small builders so every tool reports errors the same way. */
import type { ToolResult } from "../tool.ts";

export function errorResult(summary: string, content: string): ToolResult {
  return { content, isError: true, summary };
}

/** Keeps a one-line summary short whatever the model passed in. */
export function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
