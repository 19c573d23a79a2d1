/**
 * A search that read through a directory swapped for a symlink (the path swap race) reports matches from
 * outside the worktree under an inside path; confirming each match through a confined read drops
 * them, whatever the swap looks like when the search is done.
 */
import { realpath, rename, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { confirmMatches } from "../../../../lib/agent/tools/confirm-matches.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let wt: TestWorktree;
let root: string;
beforeEach(async () => {
  wt = await createWorktree();
  root = await realpath(wt.root);
  await wt.write("src/a.ts", "const token = 1;\r\nexport {};\n");
  await wt.write("lib/b.ts", "inside\n");
});
afterEach(async () => {
  await wt.cleanup();
});

describe("confirmMatches", () => {
  it("keeps a match the worktree's own file has on that line, CRLF included", async () => {
    const match = { path: "src/a.ts", line: 1, text: "const token = 1;\r" };
    expect(await confirmMatches(root, [match])).toEqual([match]);
  });

  it("drops a match read through a directory that is now a symlink to outside", async () => {
    await wt.write("../outside/b.ts", "SECRET=outside\n");
    await rename(path.join(root, "lib"), path.join(root, "lib-moved"));
    await symlink(wt.outside, path.join(root, "lib"));
    const leaked = { path: "lib/b.ts", line: 1, text: "SECRET=outside" };
    expect(await confirmMatches(root, [leaked])).toEqual([]);
  });

  it("drops a match whose line the worktree's file does not have (read outside before a swap back)", async () => {
    const kept = { path: "src/a.ts", line: 2, text: "export {};" };
    const stale = { path: "lib/b.ts", line: 1, text: "SECRET=outside" };
    const gone = { path: "lib/missing.ts", line: 1, text: "x" };
    expect(await confirmMatches(root, [stale, kept, gone])).toEqual([kept]);
  });
});
