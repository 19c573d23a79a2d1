import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { conflictText } from "../../../lib/stack/rebase-resolving.ts";

let base: string;
let worktree: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-conflict-"));
  worktree = join(base, "worktree");
  await mkdir(join(worktree, "src"), { recursive: true });
  await writeFile(join(base, "outside-secret.txt"), "SECRET=hunter2\n");
  await writeFile(join(worktree, "src", "greet.js"), "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n");
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe("a conflicting file as Locus reads it for the resolver's prompt", () => {
  it("is a regular file of the worktree, read as it is", async () => {
    expect(await conflictText(worktree, "src/greet.js")).toContain("<<<<<<< ours");
  });

  it("is never read through a link, whether the file or a folder above it is one", async () => {
    await symlink(join(base, "outside-secret.txt"), join(worktree, "leak.txt"));
    await symlink(base, join(worktree, "up"));
    await symlink("/proc/self/environ", join(worktree, "environ"));

    expect(await conflictText(worktree, "leak.txt")).toBe("");
    expect(await conflictText(worktree, "up/outside-secret.txt")).toBe("");
    expect(await conflictText(worktree, "environ")).toBe("");
  });
});
