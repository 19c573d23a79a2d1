/**
 * Compact cards of the agent's tool calls (docs/architecture.md "Agent loop"), built from the
 * runner's events: `Read src/a.ts (245 lines)`, `Edit src/a.ts` with a short
 * diff, `Bash npm test → exit 1`. The same events feed the log tail that a
 * failure comment quotes.
 */
import type { AgentEvent } from "../agent/events.ts";
import { logLine } from "./log-line.ts";

export interface ToolCard {
  readonly tool: string;
  readonly ok: boolean;
  /** The tool's own one-line summary. */
  readonly summary: string;
  readonly durationMs: number;
  /** At most `MAX_DIFF_LINES` lines of an edit's diff. */
  readonly diff?: string;
}

const MAX_DIFF_LINES = 10;
const MAX_LOG_LINES = 200;

export interface EventRecorder {
  readonly onEvent: (event: AgentEvent) => void;
  cards(): ToolCard[];
  /** The last `lines` lines of a readable log of the run. */
  tail(lines: number): string;
}

function shortDiff(diff: string): string {
  const lines = diff.split("\n").filter((line) => !line.startsWith("---") && !line.startsWith("+++"));
  if (lines.length <= MAX_DIFF_LINES) return lines.join("\n");
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more lines`].join("\n");
}

export function createEventRecorder(onLine?: (line: string) => void): EventRecorder {
  const cards: ToolCard[] = [];
  const log: string[] = [];
  let text = "";

  /** Each entry carries the agent's words or file names: one line that starts no workflow command. */
  function line(text: string): void {
    const entry = logLine(text);
    log.push(entry);
    if (log.length > MAX_LOG_LINES) log.shift();
    onLine?.(entry);
  }
  function flushText(): void {
    const said = text.trim();
    text = "";
    if (said) line(`agent: ${said.replace(/\s+/g, " ").slice(0, 300)}`);
  }

  return {
    onEvent(event) {
      switch (event.type) {
        case "text_delta":
          text += event.content;
          return;
        case "tool_completed":
          flushText();
          cards.push({
            tool: event.tool,
            ok: event.ok,
            summary: event.summary,
            durationMs: event.duration,
            ...(event.diff ? { diff: shortDiff(event.diff) } : {}),
          });
          line(`${event.ok ? "✓" : "✗"} ${event.summary}`);
          return;
        case "warning":
          line(`warning: ${event.message}`);
          return;
        case "error": {
          flushText();
          // `retryable` says what kind of failure it was; only a wait means it is being retried.
          const retry =
            event.retryInSeconds === undefined
              ? ""
              : ` (retry ${event.attempt ?? 1} in ${event.retryInSeconds} s)`;
          line(`error: ${event.message}${retry}`);
          return;
        }
        case "done":
          flushText();
          line(`done: ${event.stats.turns} turns, ${event.stats.tools} tool calls`);
          return;
        case "start":
        case "tool_started":
        case "turn":
          return;
      }
    },
    cards: () => [...cards],
    tail(lines) {
      return log.slice(-lines).join("\n");
    },
  };
}
