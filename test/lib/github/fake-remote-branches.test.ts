/**
 * The task world's fake (test/fakes/remote-branches.ts) follows its real
 * remote as GitHub follows pushes: a pull request opens only from a pushed
 * branch, its head is the branch's newest commit, and its diff is git's
 * three-dot diff of base and head.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTaskWorld, type TaskWorld } from "../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld();
});

afterAll(async () => {
  await w.close();
});

/** Commits one new file on `branch`, started from `from`, and pushes it. */
async function pushFile(branch: string, from: string, path: string): Promise<string> {
  await w.git(["checkout", "--quiet", "-B", branch, from]);
  await writeFile(join(w.scratch, path), `${path}\n`);
  await w.git(["add", path]);
  await w.git(["commit", "--quiet", "-m", `add ${path}`]);
  await w.git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
  return (await w.git(["rev-parse", "HEAD"])).trim();
}

describe("the task world's fake and its remote", () => {
  it("opens pull requests from pushed branches, with their heads and their own diffs", async () => {
    const first = await pushFile("first", "origin/main", "one.txt");
    await pushFile("second", "origin/first", "two.txt");

    const base = await w.github.createPullRequest({ title: "One", body: "", head: "first", base: "main" });
    const stacked = await w.github.createPullRequest({
      title: "Two",
      body: "",
      head: "second",
      base: "first",
    });

    expect(base.head.sha).toBe(first);
    const diff = await w.github.getPullRequestDiff(stacked.number);
    expect(diff).toContain("+++ b/two.txt");
    expect(diff).not.toContain("one.txt");
    const moved = await pushFile("second", "origin/second", "three.txt");
    expect((await w.github.getPullRequest(stacked.number))?.head.sha).toBe(moved);
    expect((await w.github.findPullRequestByHead("second"))?.head.sha).toBe(moved);
  });

  it("refuses a pull request from a branch nobody pushed, as GitHub does", async () => {
    await expect(
      w.github.createPullRequest({ title: "Ghost", body: "", head: "never-pushed", base: "main" }),
    ).rejects.toThrow(/no branch never-pushed/);
  });
});
