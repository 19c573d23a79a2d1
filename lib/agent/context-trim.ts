/**
 * Two-tier context. A tool result is sent in full while it is fresh; once it is older than the
 * last `keepTurns` turns it may be replaced by its one-line summary (the long-term tier).
 *
 * Every replacement rewrites an early part of the conversation and so breaks the cached prefix
 * from that point on: the next request pays cache writes for everything after it. Trimming one
 * result per turn would break the cache on every turn. So it happens in batches: nothing is
 * trimmed until the conversation passes `thresholdTokens`, and then only if the bulky old results
 * would give back at least `minBatchTokens` — in which case all of them are trimmed at once. The
 * conversation then has to grow by about a batch before the cache breaks again.
 */
import type { ConversationMessage } from "./conversation.ts";

export interface TrimPolicy {
  /** Conversation size (approximate tokens) above which trimming is considered. */
  readonly thresholdTokens: number;
  /** Tool results of the last `keepTurns` assistant turns are never trimmed. */
  readonly keepTurns: number;
  /** Trim only if it frees at least this many tokens. */
  readonly minBatchTokens: number;
}

export const DEFAULT_TRIM_POLICY: TrimPolicy = {
  thresholdTokens: 60_000,
  keepTurns: 4,
  minBatchTokens: 15_000,
};

/** Results this small are kept: their summary would save next to nothing. */
const BULKY_BYTES = 600;

/** Approximate tokens of a value as sent: a quarter of its JSON bytes. */
function approximateTokens(value: unknown): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(value)) / 4);
}

export function trimmedResultText(summary: string): string {
  return `[output trimmed to save context] ${summary} (run the tool again if you need the full output)`;
}

/**
 * Replaces old bulky tool results in place by their summaries when the batch rule allows.
 * `summaries` maps tool_use ids to the tool's one-line summary. Returns how many were trimmed.
 */
export function trimContext(
  messages: ConversationMessage[],
  summaries: ReadonlyMap<string, string>,
  policy: TrimPolicy,
): number {
  if (approximateTokens(messages) <= policy.thresholdTokens) return 0;
  const userTurns = messages.flatMap((m, i) => (m.role === "user" ? [i] : []));
  // The first user message is the task; each later one holds the results of one assistant turn.
  const protectedFrom = userTurns[Math.max(1, userTurns.length - policy.keepTurns)] ?? messages.length;

  const candidates: { message: number; block: number; text: string; saved: number }[] = [];
  for (let m = 1; m < protectedFrom; m += 1) {
    const content = messages[m]?.content;
    if (messages[m]?.role !== "user" || typeof content === "string" || !content) continue;
    content.forEach((block, b) => {
      if (block.type !== "tool_result") return;
      const summary = summaries.get(block.tool_use_id);
      const bytes = Buffer.byteLength(JSON.stringify(block.content ?? ""));
      if (summary === undefined || bytes < BULKY_BYTES) return;
      const text = trimmedResultText(summary);
      candidates.push({
        message: m,
        block: b,
        text,
        saved: Math.ceil((bytes - Buffer.byteLength(text)) / 4),
      });
    });
  }
  const saved = candidates.reduce((total, c) => total + c.saved, 0);
  if (saved < policy.minBatchTokens) return 0;

  for (const candidate of candidates) {
    const content = messages[candidate.message]?.content;
    if (typeof content === "string" || !content) continue;
    const block = content[candidate.block];
    if (block?.type === "tool_result") content[candidate.block] = { ...block, content: candidate.text };
  }
  return candidates.length;
}
