import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readBranchTip } from "../../../sandbox/github-sim/git-cache.ts";
import { branchSha, commitInfo, git, initBareRepository } from "../../../sandbox/github-sim/git.ts";

const IDENTITY = { name: "Ada", email: "ada@example.com" };

describe("the simulator's repository reads without a git process", () => {
  let dir: string;
  let gitDir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "locus-git-cache-"));
    gitDir = join(dir, "repo.git");
    await initBareRepository(gitDir, "main", { "a.txt": "a\n" }, IDENTITY);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function commitOn(parent: string, message: string): Promise<string> {
    const tree = (await git(gitDir, ["rev-parse", `${parent}^{tree}`])).trim();
    const env = {
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
    };
    return (await git(gitDir, ["commit-tree", tree, "-p", parent, "-m", message], { env })).trim();
  }

  it("sees a branch move made behind the simulator's back, loose or packed", async () => {
    const first = await branchSha(gitDir, "main");
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    const next = await commitOn(first ?? "", "second");
    await git(gitDir, ["update-ref", "refs/heads/main", next]);
    expect(await branchSha(gitDir, "main")).toBe(next);
    await git(gitDir, ["pack-refs", "--all"]);
    expect(await readBranchTip(gitDir, "main")).toBe(next);
    await git(gitDir, ["update-ref", "-d", "refs/heads/main"]);
    expect(await branchSha(gitDir, "main")).toBeNull();
  });

  it("reads a commit by id once and answers the same afterwards", async () => {
    const sha = (await branchSha(gitDir, "main")) ?? "";
    const info = await commitInfo(gitDir, sha);
    expect(info?.message).toBe("Initial commit");
    expect(await commitInfo(gitDir, sha)).toBe(info);
  });

  it("leaves any name outside plain branch names to git, so no name reads a file outside refs/heads", async () => {
    for (const name of ["../../HEAD", "../config", ".hidden", "a//b", "x.lock", "a b", "main@{1}"]) {
      expect(await readBranchTip(gitDir, name)).toBeUndefined();
    }
    expect(await branchSha(gitDir, "../../HEAD")).toBeNull();
  });
});
