import { describe, expect, it } from "vitest";
import { leftOutNote, scratchFiles } from "../../../lib/task/scratch-files.ts";

describe("scratch files", () => {
  it("leaves out scratch directories, build output and logs a command created", () => {
    const untracked = [
      "src/new.js",
      "tmp/a.txt",
      "pkg/dist/index.js",
      "run.log",
      "notes.md",
      "node_modules/x/i.js",
    ];
    expect(scratchFiles(untracked, [], ["src/old.js"])).toEqual([
      "tmp/a.txt",
      "pkg/dist/index.js",
      "run.log",
      "node_modules/x/i.js",
    ]);
  });

  it("keeps what the agent wrote itself and new files in a directory the project tracks", () => {
    expect(
      scratchFiles(["tmp/keep.txt", "dist/new.js", "dist2/x.js"], ["tmp/keep.txt"], ["dist/action.js"]),
    ).toEqual([]);
  });

  it("names the files left out in a line for the summary, bounded", () => {
    expect(leftOutNote([])).toBe("");
    expect(leftOutNote(["tmp/a"])).toContain("`tmp/a`");
    expect(leftOutNote(Array.from({ length: 25 }, (_, i) => `tmp/${i}`))).toContain("and 5 more");
  });
});
