import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { shellQuote } from "../../../../lib/agent/tools/hook-commands.ts";
import { editFileTool } from "../../../../lib/agent/tools/edit-file.ts";
import { writeFileTool } from "../../../../lib/agent/tools/write-file.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
});
afterEach(() => worktree.cleanup());

describe("edit hooks", () => {
  it("runs before and after hooks for matching files and appends their output", async () => {
    await worktree.write("src/a.ts", "let a  =  1;\n");
    const context = worktree.context({
      hooks: [
        { when: "before-edit", files: "*.ts", command: "echo checking {path}" },
        { when: "after-edit", files: "*.ts", command: "sed -i 's/  */ /g' {path} && echo formatted {path}" },
        { when: "after-edit", files: "*.md", command: "echo never" },
      ],
    });
    const result = await editFileTool.run({ path: "src/a.ts", old_text: "1", new_text: "2" }, context);
    expect(await worktree.read("src/a.ts")).toBe("let a = 2;\n");
    expect(result.isError).toBe(false);
    expect(result.content).toContain(
      "The after-edit hooks changed the file; the diff shows the final content.",
    );
    expect(result.diff).toBe("--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,1 @@\n-let a  =  1;\n+let a = 2;\n");
    expect(result.content).toContain(
      "before-edit hook `echo checking 'src/a.ts'` → exit 0\nchecking src/a.ts",
    );
    expect(result.content).toContain(
      "after-edit hook `sed -i 's/  */ /g' 'src/a.ts' && echo formatted 'src/a.ts'` → exit 0\nformatted src/a.ts",
    );
    expect(result.content).not.toContain("never");
  });

  it("shows a failing after-edit hook (a linter) without undoing the edit", async () => {
    const context = worktree.context({
      hooks: [{ when: "after-edit", command: "echo 'lint: 1 problem in {path}'; exit 1" }],
    });
    const result = await writeFileTool.run({ path: "b.js", content: "var x\n" }, context);
    expect(await worktree.read("b.js")).toBe("var x\n");
    expect(result.isError).toBe(false);
    expect(result.content).toContain("after-edit hook `echo 'lint: 1 problem in 'b.js''; exit 1` → exit 1");
  });

  it("blocks the edit when a before-edit hook fails", async () => {
    await worktree.write("locked.txt", "keep\n");
    const context = worktree.context({
      hooks: [{ when: "before-edit", files: "locked.*", command: "echo this file is generated >&2; exit 2" }],
    });
    const result = await editFileTool.run(
      { path: "locked.txt", old_text: "keep", new_text: "change" },
      context,
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain("A before-edit hook failed, so locked.txt was not changed.");
    expect(result.content).toContain("this file is generated");
    expect(await worktree.read("locked.txt")).toBe("keep\n");
  });

  it("quotes the path so a file name cannot inject a command", async () => {
    const context = worktree.context({ hooks: [{ when: "after-edit", command: "echo {path}" }] });
    const result = await writeFileTool.run({ path: "a;touch pwned;'$(id).txt", content: "x\n" }, context);
    expect(result.content).toContain("a;touch pwned;'$(id).txt");
    await expect(worktree.read("pwned")).rejects.toThrow();
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
