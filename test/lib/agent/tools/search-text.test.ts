import { execFileSync } from "node:child_process";
import { rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSearchTextTool } from "../../../../lib/agent/tools/search-text.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

function ripgrepAvailable(): boolean {
  try {
    execFileSync("rg", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function git(...args: string[]): void {
  execFileSync("git", args, {
    cwd: worktree.root,
    stdio: "ignore",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: worktree.root, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/**
 * The fixture as a plain directory (the fallback walks it) and as a git worktree with part of
 * it committed (the fallback lists it through git); every variant must answer alike in both.
 */
const kinds = [
  {
    name: "a plain directory",
    setUp: (): Promise<void> => worktree.write(".git/config", "needle in git\n"),
  },
  {
    name: "a git worktree",
    setUp: async (): Promise<void> => {
      git("init", "--quiet", "--initial-branch=main");
      await worktree.write(".git/description", "needle in git\n");
      git("add", ".gitignore", "a.ts", "src");
      git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "base");
    },
  },
];

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
  await worktree.write(".gitignore", "ignored/\n");
  await worktree.write("a.ts", "const needle = 1;\nconst other = 2;\n");
  await worktree.write("src/b.ts", "// needle.*\r\nfunction needle2() {}\n");
  await worktree.write("ignored/c.ts", "needle\n");
  await worktree.write(".github/ci.yml", "run: needle\n");
  await worktree.write("image.bin", Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]));
  await writeLongLine();
  await symlink(path.join(worktree.outside, "secret.txt"), path.join(worktree.root, "link.txt"));
});
afterEach(() => worktree.cleanup());

async function writeLongLine(): Promise<void> {
  await worktree.write("min.js", `var needle="${"z".repeat(1000)}";\n`);
}

const unchangedEnv: Record<string, string> = {};
const variants: ReadonlyArray<{
  name: string;
  tool: ReturnType<typeof createSearchTextTool>;
  env: Record<string, string>;
}> = [
  { name: "JS fallback (forced)", tool: createSearchTextTool({ ripgrep: "never" }), env: unchangedEnv },
  { name: "JS fallback (no rg on PATH)", tool: createSearchTextTool(), env: { PATH: "/nonexistent" } },
  ...(ripgrepAvailable() ? [{ name: "ripgrep", tool: createSearchTextTool(), env: unchangedEnv }] : []),
];

describe.each(kinds)("in $name", ({ setUp }) => {
  beforeEach(() => setUp());

  describe.each(variants)("search_text with $name", ({ tool, env }) => {
    function context() {
      const base = worktree.context();
      return { ...base, env: { ...base.env, ...env } };
    }

    it("finds literal matches, respecting .gitignore and skipping .git, binaries and symlinks", async () => {
      await writeFile(path.join(worktree.outside, "secret.txt"), "needle outside\n");
      const result = await tool.run({ pattern: "needle" }, context());
      const lines = result.content.split("\n");
      expect(lines).toEqual([
        ".github/ci.yml:1: run: needle",
        "a.ts:1: const needle = 1;",
        `min.js:1: var needle="${"z".repeat(288)} [… 714 characters clipped …]`,
        "src/b.ts:1: // needle.*",
        "src/b.ts:2: function needle2() {}",
      ]);
      expect(result.summary).toBe('Search "needle" (5 matches)');
    });

    it("is literal by default and a regular expression with regex: true", async () => {
      const literal = await tool.run({ pattern: "needle.*" }, context());
      expect(literal.content).toBe("src/b.ts:1: // needle.*");
      const regex = await tool.run({ pattern: "needle\\d\\(", regex: true }, context());
      expect(regex.content).toBe("src/b.ts:2: function needle2() {}");
    });

    it("searches below a path", async () => {
      const result = await tool.run({ pattern: "needle", path: "src" }, context());
      expect(result.content.split("\n")).toEqual([
        "src/b.ts:1: // needle.*",
        "src/b.ts:2: function needle2() {}",
      ]);
      expect(result.summary).toBe('Search "needle" in src (2 matches)');
      const file = await tool.run({ pattern: "other", path: "a.ts" }, context());
      expect(file.content).toBe("a.ts:2: const other = 2;");
    });

    it("stops at the limit with a mark", async () => {
      await worktree.write("many.txt", Array.from({ length: 300 }, (_, index) => `hit ${index}`).join("\n"));
      const limited = await tool.run({ pattern: "hit", limit: 3 }, context());
      expect(limited.content.split("\n")).toEqual([
        "many.txt:1: hit 0",
        "many.txt:2: hit 1",
        "many.txt:3: hit 2",
        "[… stopped at 3 matches; more exist. Narrow the pattern or path, or raise limit (up to 200) …]",
      ]);
      expect(limited.summary).toBe('Search "hit" (3+ matches)');
      const clamped = await tool.run({ pattern: "hit", limit: 1000 }, context());
      const lines = clamped.content.split("\n");
      expect(lines).toHaveLength(201);
      expect(lines[200]).toBe("[… stopped at 200 matches; more exist. Narrow the pattern or path …]");
    });

    it("says when nothing matched and reports an invalid regex", async () => {
      expect((await tool.run({ pattern: "absent-text" }, context())).content).toBe("No matches.");
      const invalid = await tool.run({ pattern: "(unclosed", regex: true }, context());
      expect(invalid.isError).toBe(true);
    });

    it("refuses a multi-line pattern", async () => {
      const result = await tool.run({ pattern: "a\nb" }, context());
      expect(result).toMatchObject({
        isError: true,
        content: "search_text matches within one line; search for a single line.",
      });
    });
  });
});

describe("the JS fallback in a git worktree", () => {
  const fallback = createSearchTextTool({ ripgrep: "never" });
  beforeEach(() => kinds[1]!.setUp());

  it("skips a tracked file deleted from disk and a symlink git tracks", async () => {
    await rm(path.join(worktree.root, "a.ts"));
    git("add", "link.txt");
    await writeFile(path.join(worktree.outside, "secret.txt"), "needle outside\n");
    const result = await fallback.run({ pattern: "needle", path: "." }, worktree.context());
    expect(result.content.split("\n")).toEqual([
      ".github/ci.yml:1: run: needle",
      `min.js:1: var needle="${"z".repeat(288)} [… 714 characters clipped …]`,
      "src/b.ts:1: // needle.*",
      "src/b.ts:2: function needle2() {}",
    ]);
  });

  it("searches what git lists, a tracked file .gitignore matches included (ripgrep skips it)", async () => {
    git("add", "--force", "ignored/c.ts");
    const result = await fallback.run({ pattern: "needle", path: "ignored" }, worktree.context());
    expect(result.content).toBe("ignored/c.ts:1: needle");
  });

  it("keeps path order across files read side by side, up to the limit", async () => {
    for (let n = 0; n < 40; n++)
      await worktree.write(`many/f${String(n).padStart(2, "0")}.txt`, "x\nhit\nhit\n");
    const result = await fallback.run({ pattern: "hit", path: "many", limit: 45 }, worktree.context());
    const lines = result.content.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "many/f00.txt:2: hit",
      "many/f00.txt:3: hit",
      "many/f01.txt:2: hit",
      "many/f01.txt:3: hit",
    ]);
    expect(lines[44]).toBe("many/f22.txt:2: hit");
    expect(lines).toHaveLength(46);
  });
});
