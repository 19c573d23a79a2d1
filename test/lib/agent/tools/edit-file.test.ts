import { readdir, stat, chmod } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editFileTool, replaceText } from "../../../../lib/agent/tools/edit-file.ts";
import { writeFileTool } from "../../../../lib/agent/tools/write-file.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
});
afterEach(() => worktree.cleanup());

describe("edit_file", () => {
  it("replaces a unique match and returns a unified diff", async () => {
    await worktree.write("src/greet.js", "function greet() {\n  return 'hi';\n}\n");
    const result = await editFileTool.run(
      { path: "src/greet.js", old_text: "  return 'hi';", new_text: "  return `hi ${name}`;" },
      worktree.context(),
    );
    expect(await worktree.read("src/greet.js")).toBe("function greet() {\n  return `hi ${name}`;\n}\n");
    const diff = [
      "--- a/src/greet.js",
      "+++ b/src/greet.js",
      "@@ -1,3 +1,3 @@",
      " function greet() {",
      "-  return 'hi';",
      "+  return `hi ${name}`;",
      " }",
      "",
    ].join("\n");
    expect(result).toEqual({
      content: `Edited src/greet.js (+1 −1).\n${diff.trimEnd()}`,
      isError: false,
      summary: "Edit src/greet.js (+1 −1)",
      diff,
      filesWritten: ["src/greet.js"],
    });
  });

  it("refuses an ambiguous match, saying how many and where, and writes nothing", async () => {
    await worktree.write("a.txt", "x = 1\ny = 2\nx = 1\n");
    const result = await editFileTool.run(
      { path: "a.txt", old_text: "x = 1", new_text: "x = 3" },
      worktree.context(),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      "old_text matches 2 times (at lines 1, 3). Add surrounding lines to old_text so it matches exactly once, or set replace_all: true to change every occurrence.",
    );
    expect(await worktree.read("a.txt")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    await worktree.write("a.txt", "x = 1\ny = 2\nx = 1\n");
    const result = await editFileTool.run(
      { path: "a.txt", old_text: "x = 1", new_text: "x = 3", replace_all: true },
      worktree.context(),
    );
    expect(await worktree.read("a.txt")).toBe("x = 3\ny = 2\nx = 3\n");
    expect(result.summary).toBe("Edit a.txt (+2 −2)");
  });

  it("reports 0 matches and hints at whitespace differences", async () => {
    await worktree.write("a.py", "def f():\n    return 1\n");
    const missing = await editFileTool.run(
      { path: "a.py", old_text: "return 2", new_text: "return 3" },
      worktree.context(),
    );
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain("old_text was not found (0 matches)");
    expect(missing.content).not.toContain("different whitespace");
    const spaced = await editFileTool.run(
      { path: "a.py", old_text: "def f():\n  return 1", new_text: "def f():\n  return 2" },
      worktree.context(),
    );
    expect(spaced.content).toContain("Text with different whitespace exists near line 1.");
  });

  it("refuses missing files, empty old_text and no-op edits", async () => {
    await worktree.write("a.txt", "a\n");
    const context = worktree.context();
    expect((await editFileTool.run({ path: "b.txt", old_text: "a", new_text: "b" }, context)).content).toBe(
      "There is no file at b.txt; use write_file to create it.",
    );
    expect((await editFileTool.run({ path: "a.txt", old_text: "", new_text: "b" }, context)).isError).toBe(
      true,
    );
    expect((await editFileTool.run({ path: "a.txt", old_text: "a", new_text: "a" }, context)).isError).toBe(
      true,
    );
    expect(await worktree.read("a.txt")).toBe("a\n");
  });

  it("keeps CRLF line endings when the model writes LF", async () => {
    await worktree.write("win.txt", "one\r\ntwo\r\nthree\r\n");
    await editFileTool.run(
      { path: "win.txt", old_text: "one\ntwo", new_text: "one\nTWO\nextra" },
      worktree.context(),
    );
    expect(await worktree.read("win.txt")).toBe("one\r\nTWO\r\nextra\r\nthree\r\n");
  });

  it("keeps the file's trailing-newline convention", async () => {
    await worktree.write("no-eol.txt", "a\nb");
    await editFileTool.run({ path: "no-eol.txt", old_text: "b", new_text: "c\n" }, worktree.context());
    expect(await worktree.read("no-eol.txt")).toBe("a\nc");
    await worktree.write("eol.txt", "a\nb\n");
    await editFileTool.run({ path: "eol.txt", old_text: "b\n", new_text: "c" }, worktree.context());
    expect(await worktree.read("eol.txt")).toBe("a\nc\n");
  });

  it("writes atomically: no temporary file is left and the mode is kept", async () => {
    await worktree.write("bin/run.sh", "#!/bin/sh\necho a\n");
    await chmod(path.join(worktree.root, "bin/run.sh"), 0o755);
    await editFileTool.run(
      { path: "bin/run.sh", old_text: "echo a", new_text: "echo b" },
      worktree.context(),
    );
    expect(await readdir(path.join(worktree.root, "bin"))).toEqual(["run.sh"]);
    expect((await stat(path.join(worktree.root, "bin/run.sh"))).mode & 0o777).toBe(0o755);
  });

  it("treats `$` patterns in new_text literally", () => {
    expect(replaceText("a b", "b", "$& $1 $$", false)).toEqual({ content: "a $& $1 $$" });
  });

  it("refuses binary files", async () => {
    await worktree.write("data.bin", Buffer.from([1, 0, 2]));
    const result = await editFileTool.run(
      { path: "data.bin", old_text: "\u0001", new_text: "x" },
      worktree.context(),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain("binary");
  });
});

describe("write_file", () => {
  it("creates a new file and its directories", async () => {
    const result = await writeFileTool.run(
      { path: "src/deep/new.ts", content: "export const a = 1;\n" },
      worktree.context(),
    );
    expect(await worktree.read("src/deep/new.ts")).toBe("export const a = 1;\n");
    expect(result.summary).toBe("Write src/deep/new.ts (new file)");
    expect(result.content).toBe(
      "Created src/deep/new.ts (new file, 1 lines).\n--- /dev/null\n+++ b/src/deep/new.ts\n@@ -0,0 +1,1 @@\n+export const a = 1;",
    );
    expect(result.filesWritten).toEqual(["src/deep/new.ts"]);
  });

  it("returns a diff against the previous content", async () => {
    await worktree.write("a.txt", "one\ntwo\n");
    const result = await writeFileTool.run({ path: "a.txt", content: "one\n2\n" }, worktree.context());
    expect(result.summary).toBe("Write a.txt (+1 −1)");
    expect(result.diff).toBe("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n");
  });

  it("keeps CRLF and the missing final newline of an existing file", async () => {
    await worktree.write("win.txt", "a\r\nb");
    await writeFileTool.run({ path: "win.txt", content: "a\nc\nd\n" }, worktree.context());
    expect(await worktree.read("win.txt")).toBe("a\r\nc\r\nd");
  });

  it("writes nothing when the content is identical", async () => {
    await worktree.write("a.txt", "same\n");
    const result = await writeFileTool.run({ path: "a.txt", content: "same\n" }, worktree.context());
    expect(result).toEqual({
      content: "a.txt already has this content; nothing was written.",
      isError: false,
      summary: "Write a.txt (no change)",
    });
  });

  it("refuses a directory or the root", async () => {
    await worktree.write("src/a.ts", "");
    expect((await writeFileTool.run({ path: "src", content: "x" }, worktree.context())).isError).toBe(true);
    expect((await writeFileTool.run({ path: ".", content: "x" }, worktree.context())).isError).toBe(true);
  });

  it("bounds a huge diff in the content but keeps it whole in `diff`", async () => {
    const content = Array.from({ length: 1000 }, (_, index) => `line ${index}`).join("\n") + "\n";
    const result = await writeFileTool.run({ path: "big.txt", content }, worktree.context());
    expect(result.content.split("\n")).toHaveLength(302);
    expect(result.content).toContain(
      "[… 703 more diff lines not shown; read_file the file to see the result …]",
    );
    expect(result.diff?.split("\n")).toHaveLength(1004);
  });
});
