import { symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFilesTool } from "../../../../lib/agent/tools/list-files.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
  await worktree.write(".gitignore", "node_modules/\n*.log\ndist\n!keep.log\n");
  await worktree.write(".git/HEAD", "ref: refs/heads/main\n");
  await worktree.write("README.md", "# r\n");
  await worktree.write("src/index.ts", "");
  await worktree.write("src/util/a.ts", "");
  await worktree.write("src/util/a.test.ts", "");
  await worktree.write("src/.gitignore", "generated/\n");
  await worktree.write("src/generated/x.ts", "");
  await worktree.write("node_modules/pkg/index.js", "");
  await worktree.write("debug.log", "");
  await worktree.write("keep.log", "");
  await worktree.write("dist/out.js", "");
  await worktree.write(".github/workflows/ci.yml", "");
});
afterEach(() => worktree.cleanup());

describe("list_files", () => {
  it("lists files recursively in path order, respecting nested .gitignore files and skipping .git", async () => {
    await symlink(worktree.outside, path.join(worktree.root, "outside-link"));
    const result = await listFilesTool.run({}, worktree.context());
    expect(result.content.split("\n")).toEqual([
      ".github/workflows/ci.yml",
      ".gitignore",
      "README.md",
      "keep.log",
      "outside-link -> symlink",
      "src/.gitignore",
      "src/index.ts",
      "src/util/a.test.ts",
      "src/util/a.ts",
    ]);
    expect(result.summary).toBe("List . (9 files)");
  });

  it("lists a subdirectory with a glob relative to it", async () => {
    const result = await listFilesTool.run({ path: "src", glob: "**/*.test.ts" }, worktree.context());
    expect(result.content).toBe("src/util/a.test.ts");
    const basename = await listFilesTool.run({ glob: "*.ts" }, worktree.context());
    expect(basename.content.split("\n")).toEqual(["src/index.ts", "src/util/a.test.ts", "src/util/a.ts"]);
    expect(basename.summary).toBe("List . matching *.ts (3 files)");
  });

  it("applies the parent's .gitignore to a subdirectory listing", async () => {
    const result = await listFilesTool.run({ path: "src/generated" }, worktree.context());
    expect(result.content).toBe("No files under src/generated (gitignored files are not listed).");
  });

  it("cuts at the limit with a mark", async () => {
    for (let index = 0; index < 12; index += 1)
      await worktree.write(`many/f${String(index).padStart(2, "0")}.txt`, "");
    const result = await listFilesTool.run({ path: "many", limit: 5 }, worktree.context());
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe("[… listing cut at 5 of 12 files; narrow it with path or glob …]");
  });

  it("clamps the limit to 500", async () => {
    for (let index = 0; index < 510; index += 1) await worktree.write(`bulk/f${index}.txt`, "");
    const result = await listFilesTool.run({ path: "bulk", limit: 10_000 }, worktree.context());
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(501);
    expect(lines[500]).toBe("[… listing cut at 500 of 510 files; narrow it with path or glob …]");
  });

  it("reports a missing directory and lists a single file", async () => {
    expect((await listFilesTool.run({ path: "nope" }, worktree.context())).isError).toBe(true);
    expect((await listFilesTool.run({ path: "README.md" }, worktree.context())).content).toBe("README.md");
  });
});
