import { describe, expect, it } from "vitest";
import { failedStepTail } from "../../../lib/ci/log-tail.ts";

const at = "2026-11-26T10:00:00.1234567Z ";
const log = [
  "##[group]Set up job",
  "Runner 2.330.0",
  "##[endgroup]",
  "##[group]Run npm ci",
  "##[endgroup]",
  "added 3 packages",
  "##[group]Run npm test",
  "##[endgroup]",
  "> node --test",
  "✖ greets",
  "##[error]Process completed with exit code 1.",
  "Post job cleanup.",
  "Cleaning up orphan processes",
]
  .map((line) => `${at}${line}`)
  .join("\n");

describe("failedStepTail", () => {
  it("keeps the failed step's section up to its error, without timestamps or cleanup", () => {
    expect(failedStepTail(log)).toEqual({
      lines: [
        "##[group]Run npm test",
        "> node --test",
        "✖ greets",
        "##[error]Process completed with exit code 1.",
      ],
      omitted: 0,
    });
  });

  it("bounds the lines and their length, and says how many it left out", () => {
    const long = [
      "##[group]Run test",
      ...Array.from({ length: 100 }, (_, i) => `line ${i} ${"x".repeat(400)}`),
    ];
    const tail = failedStepTail(long.join("\n"), 10, 20);
    expect(tail.lines).toHaveLength(10);
    expect(tail.omitted).toBe(91);
    expect(tail.lines[9]).toBe(`line 99 ${"x".repeat(12)} …`);
  });
});
