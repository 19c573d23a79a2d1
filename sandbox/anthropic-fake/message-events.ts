/**
 * Builds a scripted reply as the API sends it: the JSON `Message` of a plain request, or the SSE
 * event sequence of a streamed one (message_start, content blocks with their deltas split into
 * several chunks, a ping, message_delta with the stop reason and usage, message_stop).
 */
import type { CacheUsage, FakeBlock, FakeResponse, FakeStopReason } from "./types.ts";
import { approximateTokens } from "./prompt-cache.ts";

export interface SseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface BuiltMessage {
  readonly id: string;
  readonly content: ContentBlock[];
  readonly stopReason: FakeStopReason;
  readonly outputTokens: number;
}

/** Splits text into `parts` pieces of near-equal length (at least one character each). */
function chunks(text: string, parts: number): string[] {
  if (text.length <= 1) return [text];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function buildMessage(
  response: FakeResponse,
  ids: { message: string; toolUse: () => string },
): BuiltMessage {
  const content = response.content.map((block: FakeBlock): ContentBlock =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "tool_use", id: block.id ?? ids.toolUse(), name: block.name, input: block.input },
  );
  const stopReason =
    response.stopReason ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  const outputTokens = Math.max(1, approximateTokens(Buffer.byteLength(JSON.stringify(content))));
  return { id: ids.message, content, stopReason, outputTokens };
}

function usageOf(usage: CacheUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
    cache_creation: {
      ephemeral_5m_input_tokens: usage.cache_creation_input_tokens,
      ephemeral_1h_input_tokens: 0,
    },
    output_tokens: outputTokens,
    service_tier: "standard",
  };
}

export function messageJson(
  message: BuiltMessage,
  model: string,
  usage: CacheUsage,
): Record<string, unknown> {
  return {
    id: message.id,
    type: "message",
    role: "assistant",
    model,
    content: message.content,
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage: usageOf(usage, message.outputTokens),
  };
}

export function messageEvents(message: BuiltMessage, model: string, usage: CacheUsage): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          ...messageJson(message, model, usage),
          content: [],
          stop_reason: null,
          usage: usageOf(usage, 1),
        },
      },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      });
      if (index === 0) events.push({ event: "ping", data: { type: "ping" } });
      for (const text of chunks(block.text, 3)) {
        events.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "text_delta", text } },
        });
      }
    } else {
      events.push({
        event: "content_block_start",
        data: {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        },
      });
      if (index === 0) events.push({ event: "ping", data: { type: "ping" } });
      // The API opens a tool's input with an empty partial, then streams the JSON in pieces.
      for (const partial_json of ["", ...chunks(JSON.stringify(block.input), 4)]) {
        events.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } },
        });
      }
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: message.stopReason, stop_sequence: null },
        usage: {
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          output_tokens: message.outputTokens,
        },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return events;
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
