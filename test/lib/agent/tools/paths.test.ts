import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveWorktreePath } from "../../../../lib/agent/tools/paths.ts";
import { builtinTools, runTool } from "../../../../lib/agent/tools/registry.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;

beforeEach(async () => {
  worktree = await createWorktree();
  await worktree.write("src/a.txt", "inside\n");
  await worktree.write(".git/config", "[core]\n");
  await worktree.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
  await worktree.write("vendor/lib/.git/config", "[core]\n");
  await writeFile(path.join(worktree.outside, "secret.txt"), "outside secret\n");
  await symlink("/etc", path.join(worktree.root, "etc-link"));
  await symlink(worktree.outside, path.join(worktree.root, "out-link"));
  await symlink(path.join(worktree.outside, "secret.txt"), path.join(worktree.root, "secret-link.txt"));
  await symlink(path.join(worktree.outside, "not-yet.txt"), path.join(worktree.root, "dangling.txt"));
  await symlink("/proc/self", path.join(worktree.root, "proc-link"));
});

afterEach(() => worktree.cleanup());

const escapes = [
  "../x.txt",
  "../outside/secret.txt",
  "/etc/passwd",
  "a/../../x.txt",
  "src/../../outside/secret.txt",
  "etc-link/passwd",
  "etc-link/locus-probe.txt",
  "out-link/secret.txt",
  "out-link/new.txt",
  "out-link/deeper/new.txt",
  "secret-link.txt",
  "dangling.txt",
  ".git/config",
  ".git/hooks/pre-commit",
  ".git/hooks/post-checkout",
  ".GIT/config",
  "vendor/lib/.git/config",
  "/proc/self/environ",
  "proc-link/environ",
  "~/x.txt",
];

async function outsideState(): Promise<string> {
  const names = (await readdir(worktree.outside)).sort();
  const secret = await readFile(path.join(worktree.outside, "secret.txt"), "utf8");
  const gitConfig = await worktree.read(".git/config");
  const hook = await worktree.read(".git/hooks/pre-commit");
  const gitHooks = (await readdir(path.join(worktree.root, ".git/hooks"))).sort();
  return JSON.stringify({ names, secret, gitConfig, hook, gitHooks });
}

describe("path confinement", () => {
  it.each(escapes)("refuses %s in every tool and writes nothing", async (escape) => {
    const before = await outsideState();
    const context = worktree.context();
    const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ["read_file", { path: escape }],
      ["write_file", { path: escape, content: "pwned\n" }],
      ["edit_file", { path: escape, old_text: "outside", new_text: "pwned" }],
      ["edit_file", { path: escape, old_text: "[core]", new_text: "[core]\n\thooksPath = /tmp" }],
      ["list_files", { path: escape }],
      ["search_text", { pattern: "secret", path: escape }],
    ];
    for (const [name, input] of calls) {
      const result = await runTool(builtinTools(), name, input, context);
      expect(result.isError, `${name} ${escape}`).toBe(true);
      expect(result.filesWritten).toBeUndefined();
      expect(result.content).not.toContain("outside secret");
      expect(result.content).not.toMatch(/root:.*:0:0:/);
    }
    expect(await outsideState()).toBe(before);
    expect(existsSync("/etc/locus-probe.txt")).toBe(false);
    expect(existsSync(path.join(worktree.outside, "not-yet.txt"))).toBe(false);
    expect(existsSync(path.join(path.dirname(worktree.root), "x.txt"))).toBe(false);
  });

  it("explains why a path was refused", async () => {
    const context = worktree.context();
    const absolute = await runTool(builtinTools(), "read_file", { path: "/etc/passwd" }, context);
    expect(absolute.content).toContain("is absolute; paths are relative to the worktree root");
    const dotdot = await runTool(builtinTools(), "read_file", { path: "a/../../x" }, context);
    expect(dotdot.content).toContain("resolves outside the worktree");
    const link = await runTool(builtinTools(), "read_file", { path: "out-link/secret.txt" }, context);
    expect(link.content).toContain("outside the worktree through a symlink");
    const git = await runTool(
      builtinTools(),
      "write_file",
      { path: ".git/hooks/pre-push", content: "x" },
      context,
    );
    expect(git.content).toContain("inside .git");
    const dangling = await runTool(
      builtinTools(),
      "write_file",
      { path: "dangling.txt", content: "x" },
      context,
    );
    expect(dangling.content).toContain("symlink whose target does not exist");
  });

  it("allows `..` that stays inside and symlinks that resolve inside", async () => {
    await mkdir(path.join(worktree.root, "docs"));
    await symlink(path.join(worktree.root, "src/a.txt"), path.join(worktree.root, "docs/a-link.txt"));
    expect(await resolveWorktreePath(worktree.root, "src/../src/a.txt")).toMatchObject({
      ok: true,
      relative: "src/a.txt",
      exists: true,
    });
    const context = worktree.context();
    const edit = await runTool(
      builtinTools(),
      "edit_file",
      { path: "docs/a-link.txt", old_text: "inside", new_text: "changed" },
      context,
    );
    expect(edit.isError).toBe(false);
    expect(edit.filesWritten).toEqual(["src/a.txt"]);
    expect(await worktree.read("src/a.txt")).toBe("changed\n");
    expect((await lstat(path.join(worktree.root, "docs/a-link.txt"))).isSymbolicLink()).toBe(true);
  });

  it("resolves a new file under a missing directory to a path inside the worktree", async () => {
    const resolved = await resolveWorktreePath(worktree.root, "new/dir/file.ts");
    expect(resolved).toMatchObject({ ok: true, relative: "new/dir/file.ts", exists: false });
  });

  it("refuses a path with a NUL byte", async () => {
    expect(await resolveWorktreePath(worktree.root, "a\0b")).toMatchObject({ ok: false });
  });
});
