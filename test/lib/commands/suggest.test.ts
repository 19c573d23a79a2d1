import { describe, expect, it } from "vitest";
import { editDistance, suggestCommand } from "../../../lib/commands/suggest.ts";

describe("suggestCommand", () => {
  it.each([
    ["itterate", "iterate"],
    ["iterat", "iterate"],
    ["reveiw", "review"],
    ["REVIEW2", "review"],
    ["stauts", "status"],
    ["cancle", "cancel"],
    ["aprove", "approve"],
    ["plna", "plan"],
    ["halp", "help"],
    ["runn", "run"],
    ["ordr", "order"],
    ["run.", "run"],
  ])("%s suggests %s", (typed, expected) => {
    expect(suggestCommand(typed)).toBe(expected);
  });

  it.each(["deploy", "ok", "x", "go", "", "merge", "iterateiterate", "a".repeat(10_000)])(
    "%j suggests nothing",
    (typed) => {
      expect(suggestCommand(typed)).toBeUndefined();
    },
  );

  it("suggests nothing when two commands are equally close", () => {
    // Two edits from both `help` and `plan`.
    expect(editDistance("hean", "help", 2)).toBe(2);
    expect(editDistance("hean", "plan", 2)).toBe(2);
    expect(suggestCommand("hean")).toBeUndefined();
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and adjacent swaps", () => {
    expect(editDistance("run", "run", 2)).toBe(0);
    expect(editDistance("rn", "run", 2)).toBe(1);
    expect(editDistance("rxn", "run", 2)).toBe(1);
    expect(editDistance("urn", "run", 2)).toBe(1);
    expect(editDistance("", "ab", 2)).toBe(2);
  });

  it("stops at the limit", () => {
    expect(editDistance("status", "run", 2)).toBe(3);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});
