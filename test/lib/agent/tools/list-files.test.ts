import { execFileSync } from "node:child_process";
import { rm, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFilesTool } from "../../../../lib/agent/tools/list-files.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

function git(...args: string[]): void {
  execFileSync("git", args, {
    cwd: worktree.root,
    stdio: "ignore",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: worktree.root, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/**
 * The same fixture listed two ways: by git in a git worktree (part of it committed, the rest
 * untracked), and by the JS walk where `.git` is not a repository git can read.
 */
const variants = [
  {
    name: "git",
    setUp: (): Promise<void> => {
      git("init", "--quiet", "--initial-branch=main");
      git("add", ".gitignore", "README.md", "src");
      git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "base");
      return Promise.resolve();
    },
  },
  {
    name: "the JS walk (not a git worktree)",
    setUp: (): Promise<void> => worktree.write(".git/HEAD", "ref: refs/heads/main\n"),
  },
] as const;

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
  await worktree.write(".gitignore", "node_modules/\n*.log\ndist\n!keep.log\n");
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

describe.each(variants)("list_files through $name", ({ setUp }) => {
  beforeEach(() => setUp());

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

/** Each of these lists a file git tracks although .gitignore matches it: only git lists that. */
describe("list_files in a git worktree", () => {
  beforeEach(async () => {
    await variants[0].setUp();
    await worktree.write("src/util/trace.log", "");
    git("add", "--force", "src/util/trace.log");
  });

  it("lists a tracked file that .gitignore matches, as git does", async () => {
    const result = await listFilesTool.run({ glob: "*.log" }, worktree.context());
    expect(result.content.split("\n")).toEqual(["keep.log", "src/util/trace.log"]);
  });

  it("leaves out a tracked file deleted from disk and marks a committed symlink", async () => {
    await symlink("README.md", path.join(worktree.root, "readme-link"));
    git("add", "readme-link");
    await rm(path.join(worktree.root, "src/index.ts"));
    const result = await listFilesTool.run({ path: "src" }, worktree.context());
    expect(result.content.split("\n")).toEqual([
      "src/.gitignore",
      "src/util/a.test.ts",
      "src/util/a.ts",
      "src/util/trace.log",
    ]);
    const root = await listFilesTool.run({ glob: "readme*" }, worktree.context());
    expect(root.content).toBe("readme-link -> symlink");
  });

  it("takes a directory name with pathspec characters literally", async () => {
    await worktree.write("lib*/x.ts", "");
    await worktree.write("lib*/x.log", "");
    git("--literal-pathspecs", "add", "--force", "lib*/x.log");
    await worktree.write("library.ts", "");
    const result = await listFilesTool.run({ path: "lib*" }, worktree.context());
    expect(result.content.split("\n")).toEqual(["lib*/x.log", "lib*/x.ts"]);
  });

  it("lists this worktree even when the environment points git at another repository", async () => {
    const env = { ...worktree.context().env, GIT_DIR: worktree.outside, GIT_WORK_TREE: worktree.outside };
    const result = await listFilesTool.run({ path: "src/util" }, worktree.context({ env }));
    expect(result.content.split("\n")).toEqual(["src/util/a.test.ts", "src/util/a.ts", "src/util/trace.log"]);
  });
});
