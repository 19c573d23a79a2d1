import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileTool } from "../../../../lib/agent/tools/read-file.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
});
afterEach(() => worktree.cleanup());

function lines(count: number, make = (n: number) => `line ${n}`): string {
  return Array.from({ length: count }, (_, index) => make(index + 1)).join("\n") + "\n";
}

describe("read_file", () => {
  it("shows numbered lines of a whole file", async () => {
    await worktree.write("src/a.ts", "const a = 1;\r\nconst b = 2;\r\n");
    const result = await readFileTool.run({ path: "src/a.ts" }, worktree.context());
    expect(result).toEqual({
      content: "1\tconst a = 1;\n2\tconst b = 2;",
      isError: false,
      summary: "Read src/a.ts (2 lines)",
    });
  });

  it("pads line numbers and reads a range", async () => {
    await worktree.write("big.txt", lines(120));
    const result = await readFileTool.run(
      { path: "big.txt", start_line: 98, end_line: 101 },
      worktree.context(),
    );
    expect(result.content).toBe(" 98\tline 98\n 99\tline 99\n100\tline 100\n101\tline 101");
    expect(result.summary).toBe("Read big.txt lines 98–101 of 120");
  });

  it("stops at 500 lines with a mark saying how to read on", async () => {
    await worktree.write("huge.txt", lines(1200));
    const result = await readFileTool.run({ path: "huge.txt" }, worktree.context());
    const shown = result.content.split("\n");
    expect(shown[0]).toBe("  1\tline 1");
    expect(shown[499]).toBe("500\tline 500");
    expect(shown[500]).toBe(
      "[… shown lines 1–500 of 1200; lines 501–1200 not shown: call read_file with start_line: 501 to read on …]",
    );
    expect(shown).toHaveLength(501);
    const next = await readFileTool.run(
      { path: "huge.txt", start_line: 1101, end_line: 5000 },
      worktree.context(),
    );
    expect(next.content.split("\n")).toHaveLength(100);
    expect(next.content).not.toContain("[…");
  });

  it("stops at 100 KB on a line boundary with a mark", async () => {
    await worktree.write(
      "wide.txt",
      lines(300, (n) => `${n}:${"x".repeat(999)}`),
    );
    const result = await readFileTool.run({ path: "wide.txt" }, worktree.context());
    const shown = result.content.split("\n");
    expect(shown).toHaveLength(100);
    expect(shown[99]).toBe(
      "[… shown lines 1–99 of 300 (100 KB limit); lines 100–300 not shown: call read_file with start_line: 100 to read on …]",
    );
  });

  it("clips a single line longer than the budget", async () => {
    await worktree.write("min.js", `${"a".repeat(150_000)}\nnext\n`);
    const result = await readFileTool.run({ path: "min.js" }, worktree.context());
    expect(result.content).toContain("[… line clipped: 150000 characters …]");
    expect(result.content).toContain("call read_file with start_line: 2");
    expect(result.content.length).toBeLessThan(101_000);
  });

  it("refuses binary files politely", async () => {
    await worktree.write("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const result = await readFileTool.run({ path: "logo.png" }, worktree.context());
    expect(result).toEqual({
      content: "logo.png is a binary file (7 bytes); read_file shows text files only.",
      isError: true,
      summary: "Read logo.png: binary",
    });
  });

  it("reports missing files, directories, empty files and bad ranges", async () => {
    await worktree.write("empty.txt", "");
    await worktree.write("src/x.ts", "a\nb\n");
    const context = worktree.context();
    expect((await readFileTool.run({ path: "nope.ts" }, context)).content).toBe(
      "There is no file at nope.ts. Use list_files to see what exists.",
    );
    expect((await readFileTool.run({ path: "src" }, context)).content).toContain(
      "is a directory; use list_files",
    );
    expect(await readFileTool.run({ path: "empty.txt" }, context)).toEqual({
      content: "empty.txt is empty.",
      isError: false,
      summary: "Read empty.txt (empty)",
    });
    const past = await readFileTool.run({ path: "src/x.ts", start_line: 5 }, context);
    expect(past).toMatchObject({
      isError: true,
      content: "src/x.ts has 2 lines; start_line 5 is past the end.",
    });
    const reversed = await readFileTool.run({ path: "src/x.ts", start_line: 2, end_line: 1 }, context);
    expect(reversed).toMatchObject({ isError: true, content: "end_line (1) is before start_line (2)." });
  });
});
