/**
 * List prices of Claude models in US dollars per million tokens, from Anthropic's pricing page
 * (platform.claude.com/docs/en/about-claude/pricing). Cache writes (5-minute TTL, the only kind
 * Locus uses) cost 1.25× input and cache reads 0.1× input, except where the page lists another
 * cache-hit price. Config `agent.pricing` adds or overrides prices per model id. A model with no
 * known price is refused at the start of a task (lib/cost/unpriced-model.ts) rather than counted
 * as free, which would turn the cost limits off.
 */
import type { Usage } from "./usage.ts";

export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

function price(input: number, output: number, cacheRead = input / 10): ModelPrice {
  return { input, output, cacheWrite: input * 1.25, cacheRead };
}

// Keys are model ids without a date suffix; `claude-sonnet-4-5-20250929` is priced as `claude-sonnet-4-5`.
const PRICES: Readonly<Record<string, ModelPrice>> = {
  "claude-fable-5-1": price(10, 50, 0.25),
  "claude-mythos-5-1": price(10, 50, 0.25),
  "claude-fable-5": price(10, 50),
  "claude-mythos-5": price(10, 50),
  "claude-opus-5-5": price(4, 20),
  "claude-opus-5": price(5, 25),
  "claude-opus-4-8": price(5, 25),
  "claude-opus-4-7": price(5, 25),
  "claude-opus-4-6": price(5, 25),
  "claude-opus-4-5": price(5, 25),
  "claude-opus-4-1": price(15, 75),
  "claude-opus-4": price(15, 75),
  "claude-sonnet-5-5": price(2, 10),
  "claude-sonnet-5": price(2, 10),
  "claude-sonnet-4-6": price(3, 15),
  "claude-sonnet-4-5": price(3, 15),
  "claude-sonnet-4": price(3, 15),
  "claude-haiku-4-5": price(1, 5),
};

/** Prices from config (`agent.pricing`), dollars per million tokens; cache prices default as above. */
export type ConfiguredPrices = Readonly<
  Record<
    string,
    { input: number; output: number; cacheWrite?: number | undefined; cacheRead?: number | undefined }
  >
>;

/**
 * The Anthropic model id a cloud's id names: Bedrock writes `anthropic.claude-sonnet-4-5-20250929-v1:0`
 * (with a `us.`, `eu.`, `global.`… prefix for a cross-region profile), Vertex `claude-sonnet-4-5@20250929`.
 * Both list Claude at Anthropic's own prices (https://aws.amazon.com/bedrock/pricing/,
 * https://cloud.google.com/vertex-ai/generative-ai/pricing); a regional endpoint's premium is
 * `agent.pricing`'s to state.
 */
function anthropicModelId(model: string): string {
  return model
    .replace(/^(?:[a-z]{2,6}\.)?anthropic\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/@\d{8}$/, "");
}

export function modelPrice(model: string, configured: ConfiguredPrices = {}): ModelPrice | undefined {
  const base = anthropicModelId(model).replace(/-\d{8}$/, "");
  const own = configured[model] ?? configured[base];
  if (own) {
    const p = price(own.input, own.output, own.cacheRead);
    return own.cacheWrite === undefined ? p : { ...p, cacheWrite: own.cacheWrite };
  }
  return PRICES[base];
}

/** Dollars for `usage` on `model`, or undefined when the model's price is not known. */
export function costUsd(model: string, usage: Usage, configured?: ConfiguredPrices): number | undefined {
  const p = modelPrice(model, configured);
  if (!p) return undefined;
  const dollars =
    usage.inputTokens * p.input +
    usage.outputTokens * p.output +
    usage.cacheWriteTokens * p.cacheWrite +
    usage.cacheReadTokens * p.cacheRead;
  return dollars / 1_000_000;
}
