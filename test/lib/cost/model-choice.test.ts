import { describe, expect, it } from "vitest";
import { modelChoiceRefusal, taskModelRefusal } from "../../../lib/cost/model-choice.ts";

const agent = {
  provider: "builtin",
  model: "claude-sonnet-4-5",
  models: ["claude-opus-4-5", "house-model"],
} as const;

describe("modelChoiceRefusal", () => {
  it("allows agent.model and the listed, priced models", () => {
    expect(modelChoiceRefusal("claude-sonnet-4-5", agent)).toBeUndefined();
    expect(modelChoiceRefusal("claude-opus-4-5", agent)).toBeUndefined();
    expect(modelChoiceRefusal("claude-opus-4-5", { ...agent, models: undefined })).toMatch(/not allowed/);
  });

  it("refuses an unlisted model, naming the allowed ones and how to ask again", () => {
    expect(modelChoiceRefusal("claude-opus-4-1", agent, "`/locus iterate`")).toBe(
      "Model `claude-opus-4-1` is not allowed here; this repository allows `claude-sonnet-4-5`, " +
        "`claude-opus-4-5`, `house-model`. A maintainer can add it to `agent.models` in " +
        "`.github/locus.yml`; then comment `/locus iterate` again.",
    );
  });

  it("refuses a listed model without a price unless config prices it or the provider reports cost", () => {
    expect(modelChoiceRefusal("house-model", agent)).toMatch(
      /does not know the price of model `house-model`/,
    );
    const pricing = { "house-model": { input: 1, output: 2 } };
    expect(modelChoiceRefusal("house-model", { ...agent, pricing })).toBeUndefined();
    expect(modelChoiceRefusal("house-model", { ...agent, provider: "claude-code" })).toBeUndefined();
  });
});

describe("taskModelRefusal", () => {
  it("holds a command's model to the allowlist and the configured one to its price only", () => {
    expect(taskModelRefusal("claude-opus-4-1", true, agent)).toMatch(/not allowed/);
    expect(taskModelRefusal("claude-opus-4-1", false, agent)).toBeUndefined();
    expect(taskModelRefusal("house-model", false, agent)).toMatch(/does not know the price/);
  });
});
