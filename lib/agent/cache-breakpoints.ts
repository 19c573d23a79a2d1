/**
 * Places the four prompt-cache breakpoints the API allows so every turn re-reads what the
 * previous turn wrote:
 *
 * 1. the last tool definition (tools never change during a task),
 * 2. the last system block (instructions + repository context, also fixed for the task),
 * 3. the previous user turn — the block that was marked "latest" in the previous request, so its
 *    prefix (everything up to it) is found in the cache even when one turn adds more than the
 *    ~20 blocks the API looks back from a breakpoint,
 * 4. the latest user turn, which writes the prefix the next request will read.
 *
 * Returns copies; the conversation itself carries no `cache_control`, so breakpoints move freely.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ConversationMessage } from "./conversation.ts";

const EPHEMERAL = { type: "ephemeral" } as const;

function markLastBlock(message: ConversationMessage): ConversationMessage {
  const blocks: Anthropic.ContentBlockParam[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
  const last = blocks.at(-1);
  if (!last || last.type === "thinking" || last.type === "redacted_thinking") return message;
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL };
  return { ...message, content: blocks };
}

export interface CachedPrompt {
  readonly tools: Anthropic.Tool[];
  readonly system: Anthropic.TextBlockParam[];
  readonly messages: ConversationMessage[];
}

export function withCacheBreakpoints(
  tools: readonly Anthropic.Tool[],
  system: readonly Anthropic.TextBlockParam[],
  messages: readonly ConversationMessage[],
): CachedPrompt {
  const markedTools = tools.map((tool, i) =>
    i === tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool,
  );
  const markedSystem = system.map((block, i) =>
    i === system.length - 1 ? { ...block, cache_control: EPHEMERAL } : block,
  );
  const userTurns = messages.flatMap((m, i) => (m.role === "user" ? [i] : [])).slice(-2);
  const markedMessages = messages.map((message, i) =>
    userTurns.includes(i) ? markLastBlock(message) : message,
  );
  return { tools: markedTools, system: markedSystem, messages: markedMessages };
}
