/** The body of a PR Locus opens: `Closes #N`, what the agent did, and what it cost. */
import type { Usage } from "../agent/usage.ts";
import { hiddenMarker } from "../markers.ts";
import { codeBlock, details, formatUsd, tableCell } from "./markdown.ts";
import { safeToPublish } from "./safe-text.ts";

export interface ToolCallRecord {
  readonly name: string;
  /** One line: the path, pattern or command the tool was called with. */
  readonly target: string;
  readonly ok: boolean;
}

export interface FileChange {
  readonly path: string;
  readonly additions: number;
  readonly deletions: number;
}

export interface PullRequestBodyInput {
  readonly issue: number;
  readonly summary: string;
  readonly filesChanged: readonly FileChange[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly costUsd: number;
  readonly usage: Usage;
  readonly model: string;
  /** Sprint tasks: the task PR this one is stacked on. */
  readonly stackedOn?: number;
  /** Shown when the model was not a real one (the sandbox's replay model). */
  readonly notice?: string;
  readonly runUrl?: string;
}

const MAX_TOOL_LINES = 200;

export function renderPullRequestBody(input: PullRequestBodyInput): string {
  const parts = [hiddenMarker("pr", `issue=${input.issue}`), `Closes #${input.issue}`];
  if (input.notice) parts.push(`> [!NOTE]\n> ${input.notice}`);
  if (input.stackedOn !== undefined) {
    parts.push(`Stacked on #${input.stackedOn}: review and merge that one first.`);
  }
  // The agent's words may not ping, close other issues or load remote images; `Closes #N` above is the only keyword.
  parts.push(`## Summary\n\n${safeToPublish(input.summary.trim()) || "_The agent gave no summary._"}`);
  parts.push(renderFiles(input.filesChanged));
  parts.push(renderToolLog(input.toolCalls));
  const run = input.runUrl ? ` · [run](${input.runUrl})` : "";
  parts.push(`<sub>${input.model} · ${renderTokens(input.usage)} · ${formatUsd(input.costUsd)}${run}</sub>`);
  return parts.join("\n\n");
}

function renderFiles(files: readonly FileChange[]): string {
  if (files.length === 0) return "## Files changed\n\n_None._";
  const rows = files.map(
    (file) => `| \`${tableCell(file.path)}\` | +${file.additions} | −${file.deletions} |`,
  );
  return ["## Files changed", "", "| File | Added | Removed |", "| --- | ---: | ---: |", ...rows].join("\n");
}

function renderToolLog(calls: readonly ToolCallRecord[]): string {
  const shown = calls.slice(0, MAX_TOOL_LINES).map((call) => {
    const mark = call.ok ? "✓" : "✗";
    return `${mark} ${call.name} ${call.target.replace(/\s+/g, " ").slice(0, 160)}`;
  });
  if (calls.length > MAX_TOOL_LINES) shown.push(`… ${calls.length - MAX_TOOL_LINES} more calls not shown`);
  return details(`Agent log (${calls.length} tool calls)`, codeBlock(shown.join("\n") || "(no tool calls)"));
}

/** Every input token the model read (cached or not), and how many came from the prompt cache. */
function renderTokens(usage: Usage): string {
  const count = (n: number) => n.toLocaleString("en-US");
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const cached = usage.cacheReadTokens > 0 ? ` (${count(usage.cacheReadTokens)} from cache)` : "";
  return `${count(input)} in${cached} / ${count(usage.outputTokens)} out tokens`;
}
