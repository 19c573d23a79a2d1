/**
 * An ACP agent's `session/update` notifications as Locus events: its message chunks as text,
 * its tool calls as tool cards named like the built-in tools (so the live status reads
 * "running `npm test`" whichever provider ran it), its plan as a card each time it changes, and
 * its cumulative cost as turn usage. Tool calls are what Locus counts as turns for an agent that
 * reports none.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { diffStat, formatDiffStat, unifiedDiff } from "../tools/diffs.ts";
import { commandOf } from "./acp-permission.ts";
import type { RunTally } from "./cli-spec.ts";
import { worktreePath } from "./subprocess-runner.ts";
import { NO_USAGE } from "../usage.ts";

interface OpenCall {
  readonly started: number;
  title: string;
  kind: acp.ToolKind;
  rawInput: unknown;
  locations: acp.ToolCallLocation[];
  content: acp.ToolCallContent[];
}

export interface AcpUpdates {
  onUpdate(update: acp.SessionUpdate): void;
  /** The agent's last words: its text since its last tool call (its final answer). */
  summary(): string;
  toolCalls(): number;
  /** The cumulative cost it reported in US dollars, if it reported one. */
  reportedCostUsd(): number | undefined;
}

const TOOL_NAMES: Partial<Record<acp.ToolKind, string>> = {
  read: "read_file",
  edit: "edit_file",
  search: "search_text",
  execute: "run_shell",
};

function paramsOf(call: OpenCall, cwd: string): Record<string, unknown> {
  const path = call.locations[0]?.path;
  return {
    title: call.title,
    ...(path === undefined ? {} : { path: worktreePath(cwd, path) }),
    ...(call.kind === "execute" ? { command: commandOf({ toolCallId: "", ...call }) } : {}),
    ...(call.kind === "search" ? { pattern: call.title } : {}),
  };
}

function diffOf(call: OpenCall, cwd: string): string | undefined {
  const diffs = call.content.flatMap((item) =>
    item.type === "diff"
      ? [unifiedDiff(worktreePath(cwd, item.path), item.oldText ?? undefined, item.newText)]
      : [],
  );
  return diffs.length === 0 ? undefined : diffs.join("");
}

function planSummary(entries: readonly acp.PlanEntry[]): string {
  const done = entries.filter((entry) => entry.status === "completed").length;
  const current = entries.find((entry) => entry.status === "in_progress");
  return `Plan: ${done}/${entries.length} done${current ? ` — now: ${current.content.slice(0, 120)}` : ""}`;
}

export function acpUpdates(
  tally: RunTally,
  options: {
    readonly cwd: string;
    readonly now: () => number;
    /** A new tool call began (`calls` counts it): where the runner holds an unreported cost. */
    readonly onToolCallStarted?: (calls: number) => void;
  },
): AcpUpdates {
  const open = new Map<string, OpenCall>();
  let text = "";
  let calls = 0;
  let plan = "";
  let cost: number | undefined;

  function complete(id: string, call: OpenCall, ok: boolean): void {
    open.delete(id);
    const tool = TOOL_NAMES[call.kind] ?? call.kind;
    const diff = ok ? diffOf(call, options.cwd) : undefined;
    const stat = diff === undefined ? "" : ` (${formatDiffStat(diffStat(diff))})`;
    const summary = `${call.title}${stat}${ok ? "" : " → failed"}`;
    const path = call.locations[0]?.path;
    const target =
      path === undefined ? (commandOf({ toolCallId: id, ...call }) ?? "") : worktreePath(options.cwd, path);
    if (ok && (call.kind === "edit" || call.kind === "delete" || call.kind === "move")) {
      for (const location of call.locations) tally.fileChanged(worktreePath(options.cwd, location.path));
    }
    tally.tool({ name: tool, target, ok, summary });
    tally.emit({
      type: "tool_completed",
      id,
      tool,
      duration: options.now() - call.started,
      ok,
      summary,
      ...(diff === undefined ? {} : { diff }),
    });
  }

  function merge(id: string, update: acp.ToolCallUpdate | acp.ToolCall): void {
    let call = open.get(id);
    if (call === undefined) {
      call = {
        started: options.now(),
        title: update.title ?? id,
        kind: update.kind ?? "other",
        rawInput: update.rawInput,
        locations: update.locations ?? [],
        content: update.content ?? [],
      };
      open.set(id, call);
      calls += 1;
      text = "";
      tally.emit({
        type: "tool_started",
        id,
        tool: TOOL_NAMES[call.kind] ?? call.kind,
        params: paramsOf(call, options.cwd),
      });
      tally.emit({ type: "turn", turn: calls, usage: NO_USAGE, costUsd: 0 });
      options.onToolCallStarted?.(calls);
    } else {
      if (update.title) call.title = update.title;
      if (update.kind) call.kind = update.kind;
      if (update.rawInput !== undefined) call.rawInput = update.rawInput;
      if (update.locations) call.locations = update.locations;
      if (update.content) call.content = update.content;
    }
    if (update.status === "completed" || update.status === "failed")
      complete(id, call, update.status === "completed");
  }

  return {
    onUpdate(update) {
      switch (update.sessionUpdate) {
        case "agent_message_chunk":
          if (update.content.type === "text") {
            text += update.content.text;
            tally.emit({ type: "text_delta", content: update.content.text });
          }
          return;
        case "tool_call":
        case "tool_call_update":
          merge(update.toolCallId, update);
          return;
        case "plan": {
          const summary = planSummary(update.entries);
          if (summary === plan) return;
          plan = summary;
          const id = `plan-${options.now()}`;
          tally.emit({ type: "tool_started", id, tool: "plan", params: {} });
          tally.emit({ type: "tool_completed", id, tool: "plan", duration: 0, ok: true, summary });
          return;
        }
        case "usage_update": {
          if (update.cost == null || update.cost.currency.toUpperCase() !== "USD") return;
          const spent = update.cost.amount - (cost ?? 0);
          cost = update.cost.amount;
          tally.turn(NO_USAGE, spent);
          return;
        }
        case "user_message_chunk":
        case "agent_thought_chunk":
        case "available_commands_update":
        case "current_mode_update":
        case "config_option_update":
        case "session_info_update":
        case "notice":
        case "compaction_update":
        case "compaction_summary_chunk":
          return;
      }
    },
    summary: () => text.trim(),
    toolCalls: () => calls,
    reportedCostUsd: () => cost,
  };
}
