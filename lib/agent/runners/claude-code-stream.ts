/**
 * Maps Claude Code's `--output-format stream-json --verbose` lines to Locus events:
 * `assistant` messages carry text and `tool_use` blocks (one event per block, the same message
 * id repeated), `user` messages carry the `tool_result`s, and the final `result` line carries the
 * outcome, `num_turns`, `total_cost_usd`, the task's `usage` and, when the run asked for it with
 * `--json-schema`, the `structured_output`.
 */
import { maxTurnsMessage } from "../limit-messages.ts";
import { usageFromApi } from "../usage.ts";
import type { JsonLinesOutcome } from "./json-lines-process.ts";
import { claudeEditDiff, claudeToolTarget, claudeWrittenPath } from "./cli-tool-call.ts";
import type { ParsedEnd, RunTally, StreamParser } from "./cli-spec.ts";
import { exitError } from "./exit-error.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function blocks(message: unknown): Json[] {
  if (!isObject(message) || !Array.isArray(message["content"])) return [];
  return message["content"].filter(isObject);
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isObject(part) && typeof part["text"] === "string" ? part["text"] : ""))
      .join("");
  }
  return "";
}

interface PendingTool {
  readonly name: string;
  readonly input: Json;
  readonly started: number;
}

export function claudeCodeStream(
  tally: RunTally,
  options: { readonly cwd: string; readonly maxTurns: number; readonly now: () => number },
): StreamParser {
  const seenMessages = new Set<string>();
  const pending = new Map<string, PendingTool>();
  let result: Json | undefined;

  function onAssistant(message: unknown): void {
    if (!isObject(message)) return;
    const id = typeof message["id"] === "string" ? message["id"] : "";
    if (!seenMessages.has(id) && isObject(message["usage"])) {
      seenMessages.add(id);
      tally.turn(usageFromApi(message["usage"]));
    }
    for (const block of blocks(message)) {
      if (block["type"] === "text" && typeof block["text"] === "string") {
        tally.emit({ type: "text_delta", content: block["text"] });
      } else if (block["type"] === "tool_use") {
        const toolId = String(block["id"]);
        const name = String(block["name"]);
        const input = isObject(block["input"]) ? block["input"] : {};
        pending.set(toolId, { name, input, started: options.now() });
        tally.emit({ type: "tool_started", id: toolId, tool: name, params: input });
      }
    }
  }

  function onToolResult(block: Json): void {
    const toolId = String(block["tool_use_id"]);
    const call = pending.get(toolId);
    if (!call) return;
    pending.delete(toolId);
    const ok = block["is_error"] !== true;
    const target = claudeToolTarget(call.input, options.cwd);
    const summary =
      `${call.name} ${target}`.trim() + (ok ? "" : ` → error: ${resultText(block["content"]).slice(0, 120)}`);
    const diff = ok ? claudeEditDiff(call.name, call.input, options.cwd) : undefined;
    const written = ok ? claudeWrittenPath(call.name, call.input, options.cwd) : undefined;
    if (written !== undefined) tally.fileChanged(written);
    tally.tool({ name: call.name, target, ok, summary });
    tally.emit({
      type: "tool_completed",
      id: toolId,
      tool: call.name,
      duration: options.now() - call.started,
      ok,
      summary,
      ...(diff === undefined ? {} : { diff }),
    });
  }

  function onValue(value: unknown): void {
    if (!isObject(value)) return;
    if (value["type"] === "assistant") onAssistant(value["message"]);
    else if (value["type"] === "user") {
      for (const block of blocks(value["message"])) if (block["type"] === "tool_result") onToolResult(block);
    } else if (value["type"] === "result") result = value;
  }

  function finish(outcome: JsonLinesOutcome): ParsedEnd {
    if (result === undefined) {
      return { success: false, stop: "failed", summary: "", error: exitError("claude", outcome) };
    }
    const totals = {
      ...(isObject(result["usage"]) ? { usage: usageFromApi(result["usage"]) } : {}),
      ...(typeof result["total_cost_usd"] === "number" ? { costUsd: result["total_cost_usd"] } : {}),
      ...(typeof result["num_turns"] === "number" ? { turns: result["num_turns"] } : {}),
    };
    const text = typeof result["result"] === "string" ? result["result"] : "";
    if (result["subtype"] === "success" && result["is_error"] !== true) {
      const structured = result["structured_output"];
      return {
        success: true,
        stop: "finished",
        summary: text.trim(),
        ...(structured === undefined || structured === null ? {} : { structured }),
        ...totals,
      };
    }
    if (result["subtype"] === "error_max_turns") {
      const error = maxTurnsMessage(options.maxTurns);
      return { success: false, stop: "max_turns", summary: "", error, ...totals };
    }
    const error = text.trim() || `Claude Code failed (${String(result["subtype"])})`;
    return { success: false, stop: "failed", summary: "", error, ...totals };
  }

  return { onValue, finish };
}
