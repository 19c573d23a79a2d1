/**
 * What a running agent reports, whatever the provider: an NDJSON event protocol
 * (`start`, `text_delta`, `tool_started`, `tool_completed`, `done`, `error`) plus `turn` (usage
 * after each model turn) and `warning`. An `error` with `retryable: true` and `retryInSeconds`
 * is a transient failure being retried; the final `error`, if any, precedes `done`, which is
 * always the last event.
 */
import type { Usage } from "./usage.ts";

export type AgentEvent =
  | { readonly type: "start"; readonly runner: string; readonly model: string; readonly timestamp: string }
  | { readonly type: "text_delta"; readonly content: string }
  | {
      readonly type: "tool_started";
      readonly id: string;
      readonly tool: string;
      readonly params: Readonly<Record<string, unknown>>;
    }
  | {
      readonly type: "tool_completed";
      readonly id: string;
      readonly tool: string;
      /** Milliseconds the tool ran. */
      readonly duration: number;
      readonly ok: boolean;
      readonly summary: string;
      /** Unified diff of an edit or write. */
      readonly diff?: string;
    }
  | { readonly type: "turn"; readonly turn: number; readonly usage: Usage; readonly costUsd: number }
  | { readonly type: "warning"; readonly message: string }
  | {
      readonly type: "error";
      readonly message: string;
      readonly retryable: boolean;
      /** Retry number (1-based) when this error is being retried. */
      readonly attempt?: number;
      readonly retryInSeconds?: number;
      /** Text the model had streamed before its connection dropped, kept for the log. */
      readonly partialText?: string;
    }
  | {
      readonly type: "done";
      readonly success: boolean;
      readonly stats: {
        readonly duration: number;
        readonly turns: number;
        readonly tools: number;
        readonly tokens: number;
        readonly costUsd: number;
      };
    };

export type AgentEventListener = (event: AgentEvent) => void;

/** One NDJSON line (terminated by `\n`). */
export function serializeEvent(event: AgentEvent): string {
  return `${JSON.stringify(event)}\n`;
}
