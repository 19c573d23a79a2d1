/**
 * Prompt-cache accounting under Anthropic's rules, for a request already validated:
 *
 * - The prompt is a sequence of blocks in the order tools → system → messages. A block with
 *   `cache_control` is a breakpoint; the prefix up to and including it is written to the cache
 *   (billed as `cache_creation_input_tokens`) unless it is already there.
 * - A request reads the longest cached prefix it shares with an earlier request
 *   (`cache_read_input_tokens`). Hits are looked for at each breakpoint and at up to
 *   `lookbackBlocks` block boundaries before it (the API's documented ~20-block lookback).
 * - Everything after the last breakpoint is plain `input_tokens`.
 * - A prefix shorter than `minTokens` is never cached; entries live `ttlMs` after their last use.
 * - The cache is keyed by model as well as content, and `cache_control` itself is not content
 *   (moving a breakpoint does not change the prefix).
 *
 * Token counts are an approximation: ceil(UTF-8 bytes / 4) of each block's canonical JSON. Real
 * tokenizers differ, but the accounting (what is read, written or billed fresh) is what tests need.
 */
import { createHash, type Hash } from "node:crypto";
import type { CacheUsage } from "./types.ts";

export interface PromptCacheOptions {
  readonly minTokens?: number;
  readonly ttlMs?: number;
  readonly lookbackBlocks?: number;
  readonly now?: () => number;
}

export interface PromptCache {
  account(body: Record<string, unknown>): CacheUsage;
}

interface Segment {
  readonly bytes: number;
  readonly breakpoint: boolean;
}

type Json = Record<string, unknown>;

export function approximateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

function withoutCacheControl(block: Json): Json {
  const { cache_control: _ignored, ...rest } = block;
  return rest;
}

function asBlocks(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Json[]) : [];
}

/** Canonical serialization of each prompt block, in cache order. */
function segmentsOf(body: Json): { text: string; breakpoint: boolean }[] {
  const segments: { text: string; breakpoint: boolean }[] = [];
  const push = (kind: string, block: Json) =>
    segments.push({
      text: JSON.stringify([kind, withoutCacheControl(block)]),
      breakpoint: block["cache_control"] != null,
    });
  for (const tool of (body["tools"] as Json[] | undefined) ?? []) push("tool", tool);
  for (const block of asBlocks(body["system"])) push("system", block);
  for (const message of (body["messages"] as Json[] | undefined) ?? []) {
    for (const block of asBlocks(message["content"])) push(String(message["role"]), block);
  }
  return segments;
}

export function createPromptCache(options: PromptCacheOptions = {}): PromptCache {
  const minTokens = options.minTokens ?? 1024;
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const lookback = options.lookbackBlocks ?? 20;
  const now = options.now ?? Date.now;
  const entries = new Map<string, number>();

  function live(key: string): boolean {
    const expires = entries.get(key);
    return expires !== undefined && expires > now();
  }

  function account(body: Json): CacheUsage {
    const raw = segmentsOf(body);
    const hash: Hash = createHash("sha256").update(String(body["model"]));
    const keys: string[] = [];
    const prefixBytes: number[] = [];
    const segments: Segment[] = [];
    let bytes = 0;
    for (const segment of raw) {
      hash.update(segment.text).update("\u0000");
      keys.push(hash.copy().digest("hex"));
      bytes += Buffer.byteLength(segment.text);
      prefixBytes.push(bytes);
      segments.push({ bytes, breakpoint: segment.breakpoint });
    }
    const total = approximateTokens(bytes);
    const breakpoints = segments.flatMap((s, i) => (s.breakpoint ? [i] : []));
    const last = breakpoints.at(-1);
    if (last === undefined || approximateTokens(prefixBytes[last] ?? 0) < minTokens) {
      return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    }

    let readAt = -1;
    for (const breakpoint of breakpoints) {
      for (let i = breakpoint; i >= Math.max(0, breakpoint - lookback); i -= 1) {
        if (i > readAt && live(keys[i] ?? "")) readAt = i;
      }
    }
    const read = readAt >= 0 ? approximateTokens(prefixBytes[readAt] ?? 0) : 0;
    const expiry = now() + ttlMs;
    if (readAt >= 0) entries.set(keys[readAt] ?? "", expiry);
    for (const breakpoint of breakpoints) {
      if (breakpoint <= readAt) continue;
      if (approximateTokens(prefixBytes[breakpoint] ?? 0) >= minTokens)
        entries.set(keys[breakpoint] ?? "", expiry);
    }
    const written = approximateTokens(prefixBytes[last] ?? 0) - read;
    return {
      input_tokens: total - read - written,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
    };
  }

  return { account };
}
