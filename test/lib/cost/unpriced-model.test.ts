import { describe, expect, it } from "vitest";
import { costUsd, modelPrice } from "../../../lib/agent/pricing.ts";
import { unpricedModelRefusal } from "../../../lib/cost/unpriced-model.ts";

const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("unpriced models", () => {
  it("refuses a model with no list price and no configured one, for providers that do not report cost", () => {
    expect(unpricedModelRefusal("builtin", "claude-sonnet-4-6", undefined)).toBeUndefined();
    expect(unpricedModelRefusal("builtin", "claude-next-9", undefined)).toContain("`claude-next-9`");
    expect(unpricedModelRefusal("codex", "gpt-5-codex", {})).toContain("agent.pricing");
    expect(unpricedModelRefusal("claude-code", "claude-next-9", undefined)).toBeUndefined();
    expect(unpricedModelRefusal("builtin", "claude-next-9", undefined)).toContain(
      "then comment `/locus run`.",
    );
    expect(unpricedModelRefusal("builtin", "claude-next-9", undefined, "`/locus iterate`")).toContain(
      "then comment `/locus iterate`.",
    );
    // An ACP agent's model is its own; the runner holds it to the cost it reports instead.
    expect(unpricedModelRefusal("acp", "claude-next-9", undefined)).toBeUndefined();
    expect(
      unpricedModelRefusal("builtin", "claude-next-9", { "claude-next-9": { input: 1, output: 2 } }),
    ).toBe(undefined);
  });

  it("prices a configured model, dated ids included, with cache prices defaulted from input", () => {
    const configured = { "claude-next-9": { input: 2, output: 10 } };
    expect(modelPrice("claude-next-9-20270101", configured)).toEqual({
      input: 2,
      output: 10,
      cacheWrite: 2.5,
      cacheRead: 0.2,
    });
    expect(costUsd("claude-next-9", usage, configured)).toBe(12);
    // Config overrides a list price.
    expect(costUsd("claude-sonnet-4-6", usage, { "claude-sonnet-4-6": { input: 1, output: 1 } })).toBe(2);
    expect(costUsd("claude-next-9", usage)).toBeUndefined();
  });
});
