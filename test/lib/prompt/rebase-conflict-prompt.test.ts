import { describe, expect, it } from "vitest";
import { conflictHunks, hasConflictMarkers } from "../../../lib/prompt/rebase-conflict-prompt.ts";

const file = [
  "line 1",
  "line 2",
  "line 3",
  "line 4",
  "line 5",
  "<<<<<<< HEAD",
  "base side",
  "||||||| parent of abc123",
  "ancestor",
  "=======",
  "replayed side",
  ">>>>>>> abc123 (feat: x)",
  "line 13",
  "line 14",
  "line 15",
  "line 16",
  "line 17",
].join("\n");

describe("conflictHunks", () => {
  it("keeps each conflict region with three lines around it, numbered from its first line", () => {
    expect(conflictHunks(file).split("\n")).toEqual([
      "@@ line 3",
      "line 3",
      "line 4",
      "line 5",
      "<<<<<<< HEAD",
      "base side",
      "||||||| parent of abc123",
      "ancestor",
      "=======",
      "replayed side",
      ">>>>>>> abc123 (feat: x)",
      "line 13",
      "line 14",
      "line 15",
    ]);
  });
});

describe("hasConflictMarkers", () => {
  it("sees markers only at the start of a line", () => {
    expect(hasConflictMarkers(file)).toBe(true);
    expect(hasConflictMarkers("const arrow = '>>>>>>> not a marker';\n")).toBe(false);
  });
});
