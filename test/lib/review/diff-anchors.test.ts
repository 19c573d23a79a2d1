import { describe, expect, it } from "vitest";
import { diffAnchors, isAnchorable, placeFindings } from "../../../lib/review/diff-anchors.ts";
import type { Finding } from "../../../lib/review/review-schema.ts";

const DIFF = [
  "diff --git a/src/math.js b/src/math.js",
  "index 1111111..2222222 100644",
  "--- a/src/math.js",
  "+++ b/src/math.js",
  "@@ -8,5 +8,6 @@ export function a() {",
  " line 8",
  " line 9",
  "-line 10",
  "+line ten",
  "+line ten and a half",
  " line 11",
  " line 12",
  "diff --git a/old.txt b/old.txt",
  "deleted file mode 100644",
  "--- a/old.txt",
  "+++ /dev/null",
  "@@ -1,2 +0,0 @@",
  "-gone",
  "-also gone",
  "diff --git a/before.md b/after.md",
  "similarity index 90%",
  "rename from before.md",
  "rename to after.md",
  "--- a/before.md",
  "+++ b/after.md",
  "@@ -1 +1 @@",
  "-Old title",
  "+New title",
  "",
].join("\n");

function finding(path: string, line: number, side?: "LEFT" | "RIGHT"): Finding {
  return { path, line, ...(side ? { side } : {}), severity: "minor", body: `${path}:${line}` };
}

describe("diffAnchors", () => {
  const anchors = diffAnchors(DIFF);

  it("anchors added and context lines on the right, removed and context lines on the left", () => {
    expect([...(anchors.files.get("src/math.js")?.RIGHT ?? [])].sort((a, b) => a - b)).toEqual([
      8, 9, 10, 11, 12, 13,
    ]);
    expect([...(anchors.files.get("src/math.js")?.LEFT ?? [])].sort((a, b) => a - b)).toEqual([
      8, 9, 10, 11, 12,
    ]);
  });

  it("keys a deleted file by its old path and a renamed one by its new path", () => {
    expect(isAnchorable(anchors, "old.txt", "LEFT", 2)).toBe(true);
    expect(isAnchorable(anchors, "old.txt", "RIGHT", 1)).toBe(false);
    expect(isAnchorable(anchors, "after.md", "RIGHT", 1)).toBe(true);
    expect(anchors.files.has("before.md")).toBe(false);
  });

  it("reads an empty diff as no anchors", () => {
    expect(diffAnchors("").files.size).toBe(0);
  });
});

describe("placeFindings", () => {
  it("keeps diff lines inline (RIGHT by default) and moves every other finding to the body", () => {
    const placed = placeFindings(
      [
        finding("src/math.js", 10),
        finding("src/math.js", 10, "LEFT"),
        finding("src/math.js", 1),
        finding("src/math.js", 13, "LEFT"),
        finding("README.md", 1),
      ],
      diffAnchors(DIFF),
    );
    expect(placed.inline.map((f) => `${f.path}:${f.side}:${f.line}`)).toEqual([
      "src/math.js:RIGHT:10",
      "src/math.js:LEFT:10",
    ]);
    expect(placed.unplaced.map((f) => f.body)).toEqual(["src/math.js:1", "src/math.js:13", "README.md:1"]);
  });
});
