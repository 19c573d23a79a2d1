/**
 * Maps `codex exec --json` lines to Locus events: `item.started` / `item.completed` for
 * commands, file changes, MCP calls and agent messages; `turn.completed` with usage (OpenAI
 * counts cached tokens inside `input_tokens`); `turn.failed` and `error` for failures. The last
 * agent message is the summary.
 */
import type { Usage } from "../usage.ts";
import type { JsonLinesOutcome } from "./json-lines-process.ts";
import type { ParsedEnd, RunTally, StreamParser } from "./cli-spec.ts";
import { exitError } from "./exit-error.ts";
import { worktreePath } from "./subprocess-runner.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function num(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

function codexUsage(usage: Json): Usage {
  const cached = num(usage["cached_input_tokens"]);
  return {
    inputTokens: Math.max(0, num(usage["input_tokens"]) - cached),
    outputTokens: num(usage["output_tokens"]),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

export function codexStream(
  tally: RunTally,
  options: { readonly cwd: string; readonly now: () => number },
): StreamParser {
  const started = new Map<string, number>();
  let summary = "";
  let failure: string | undefined;

  function start(id: string, tool: string, params: Json): void {
    if (started.has(id)) return;
    started.set(id, options.now());
    tally.emit({ type: "tool_started", id, tool, params });
  }

  function complete(id: string, tool: string, target: string, ok: boolean, summaryText: string): void {
    const began = started.get(id) ?? options.now();
    tally.tool({ name: tool, target, ok, summary: summaryText });
    tally.emit({
      type: "tool_completed",
      id,
      tool,
      duration: options.now() - began,
      ok,
      summary: summaryText,
    });
  }

  function onItem(item: Json, completed: boolean): void {
    const id = String(item["id"]);
    switch (item["type"]) {
      case "command_execution": {
        const command = str(item["command"], "");
        start(id, "run_shell", { command });
        if (!completed) return;
        const code = typeof item["exit_code"] === "number" ? item["exit_code"] : null;
        const ok = item["status"] !== "failed" && code === 0;
        complete(id, "run_shell", command, ok, `Bash ${command} → exit ${code ?? "?"}`);
        return;
      }
      case "file_change": {
        if (!completed) return;
        const changes = Array.isArray(item["changes"]) ? item["changes"].filter(isObject) : [];
        const paths = changes.map((change) => worktreePath(options.cwd, String(change["path"])));
        start(id, "edit_file", { paths });
        for (const path of paths) tally.fileChanged(path);
        const kinds = changes.map((change, i) => `${String(change["kind"])} ${paths[i] ?? ""}`).join(", ");
        complete(id, "edit_file", paths.join(", "), item["status"] !== "failed", `Edit ${kinds}`);
        return;
      }
      case "mcp_tool_call": {
        const name = `${String(item["server"])}.${String(item["tool"])}`;
        start(id, name, {});
        if (completed) complete(id, name, "", item["status"] !== "failed", `MCP ${name}`);
        return;
      }
      case "agent_message":
        if (!completed || typeof item["text"] !== "string") return;
        summary = item["text"];
        tally.emit({ type: "text_delta", content: item["text"] });
        return;
      case "error":
        if (completed) tally.emit({ type: "warning", message: String(item["message"]) });
        return;
      default:
        return;
    }
  }

  function onValue(value: unknown): void {
    if (!isObject(value)) return;
    switch (value["type"]) {
      case "item.started":
      case "item.updated":
      case "item.completed":
        if (isObject(value["item"])) onItem(value["item"], value["type"] === "item.completed");
        return;
      case "turn.completed":
        if (isObject(value["usage"])) tally.turn(codexUsage(value["usage"]));
        return;
      case "turn.failed":
        failure = isObject(value["error"]) ? String(value["error"]["message"]) : "turn failed";
        return;
      case "error":
        failure = str(value["message"], "codex error");
        return;
      default:
        return;
    }
  }

  function finish(outcome: JsonLinesOutcome): ParsedEnd {
    if (failure !== undefined) return { success: false, stop: "failed", summary: "", error: failure };
    if (outcome.exitCode !== 0)
      return { success: false, stop: "failed", summary: "", error: exitError("codex", outcome) };
    return { success: true, stop: "end_turn", summary: summary.trim() };
  }

  return { onValue, finish };
}
