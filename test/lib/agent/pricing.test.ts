import { describe, expect, it } from "vitest";
import { costUsd, modelPrice } from "../../../lib/agent/pricing.ts";

describe("pricing", () => {
  it("prices cache writes at 1.25× and cache reads at 0.1× the input price", () => {
    expect(modelPrice("claude-sonnet-4-6")).toEqual({
      input: 3,
      output: 15,
      cacheWrite: 3.75,
      cacheRead: 0.3,
    });
  });

  it("costs a turn per million tokens of each class", () => {
    const cost = costUsd("claude-opus-4-5", {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      cacheWriteTokens: 1_000_000,
      cacheReadTokens: 10_000_000,
    });
    expect(cost).toBeCloseTo(5 + 25 + 6.25 + 5, 10);
  });

  it("prices a dated model id as its alias", () => {
    expect(modelPrice("claude-sonnet-4-5-20250929")).toEqual(modelPrice("claude-sonnet-4-5"));
  });

  it("prices Bedrock's and Vertex's ids for a model as Anthropic's", () => {
    for (const id of [
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "global.anthropic.claude-sonnet-4-5-v1",
      "claude-sonnet-4-5@20250929",
    ]) {
      expect(modelPrice(id)).toEqual(modelPrice("claude-sonnet-4-5"));
    }
    expect(modelPrice("anthropic.claude-unknown-9-v1:0")).toBeUndefined();
  });

  it("knows no price for an unknown model", () => {
    expect(
      costUsd("gpt-5-codex", { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }),
    ).toBe(undefined);
  });
});
