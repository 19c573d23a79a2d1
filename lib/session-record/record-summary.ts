/** Reads a session record back (pure): its lines in order, and the counts the job summary shows. */
import type { AgentEvent } from "../agent/events.ts";
import type { RecordLine } from "./record-writer.ts";

export interface RecordSummary {
  readonly turns: number;
  readonly toolCalls: number;
  readonly costUsd: number;
  /** Milliseconds from the first line to the last. */
  readonly durationMs: number;
}

/** The record's lines; a line cut short by a crash (the last one) is left out rather than failing. */
export function parseRecord(text: string): RecordLine[] {
  const lines: RecordLine[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    try {
      lines.push(JSON.parse(raw) as RecordLine);
    } catch {
      break;
    }
  }
  return lines;
}

export function recordEvents(lines: readonly RecordLine[]): AgentEvent[] {
  return lines.flatMap((line) => (line.kind === "event" ? [line.event] : []));
}

export function summarizeRecord(lines: readonly RecordLine[]): RecordSummary {
  const events = recordEvents(lines);
  const turns = events.filter((event) => event.type === "turn");
  return {
    turns: turns.length,
    toolCalls: events.filter((event) => event.type === "tool_started").length,
    costUsd: turns.reduce((sum, event) => sum + event.costUsd, 0),
    durationMs: (lines.at(-1)?.atMs ?? 0) - (lines[0]?.atMs ?? 0),
  };
}
