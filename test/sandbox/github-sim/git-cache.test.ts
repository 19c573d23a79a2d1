import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  readBranchTip,
  readBranchTips,
  readBranchTipsSync,
  readShortBranchName,
} from "../../../sandbox/github-sim/git-cache.ts";
import {
  branchSha,
  commitInfo,
  git,
  initBareRepository,
  readPath,
  resolveCommit,
} from "../../../sandbox/github-sim/git.ts";

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

  it("seeds the first commit with every file as given, whatever its path", async () => {
    const seeded = join(dir, "seeded.git");
    const files = {
      "README.md": "# r\n",
      "src/deep/a b.ts": "export const é = 1;\n",
      'odd "quoted" name.txt': "q",
      "back\\slash.txt": "",
    };
    await initBareRepository(seeded, "trunk", files, IDENTITY);
    const tip = (await branchSha(seeded, "trunk")) ?? "";
    expect((await commitInfo(seeded, tip))?.authorName).toBe("Ada");
    for (const [path, content] of Object.entries(files)) {
      expect(await git(seeded, ["cat-file", "blob", `${tip}:${path}`]), path).toBe(content);
    }
    const read = await readPath(seeded, tip, "src/deep/a b.ts");
    expect(read?.type === "file" ? read.content.toString("utf8") : read).toBe(files["src/deep/a b.ts"]);
  });
});

describe("short names and every branch", () => {
  let dir: string;
  let gitDir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "locus-git-names-"));
    gitDir = join(dir, "repo.git");
    await initBareRepository(gitDir, "main", { "a.txt": "a\n" }, IDENTITY);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("reads a short name as its branch only when git would, and leaves tags, HEAD and id prefixes to git", async () => {
    const tip = (await branchSha(gitDir, "main")) ?? "";
    expect(await readShortBranchName(gitDir, "main")).toBe(tip);
    expect(await readShortBranchName(gitDir, "HEAD")).toBeUndefined();
    expect(await readShortBranchName(gitDir, tip.slice(0, 7))).toBeUndefined();
    // A tag named like the branch, on another commit: git takes the tag (gitrevisions), and so must the simulator.
    const tree = (await git(gitDir, ["rev-parse", `${tip}^{tree}`])).trim();
    const env = {
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "a@x",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "a@x",
    };
    const tagged = (await git(gitDir, ["commit-tree", tree, "-p", tip, "-m", "tagged"], { env })).trim();
    await git(gitDir, ["tag", "main", tagged]);
    expect(await readShortBranchName(gitDir, "main")).toBeUndefined();
    expect(await resolveCommit(gitDir, "main")).toBe(tagged);
    await git(gitDir, ["pack-refs", "--all"]);
    expect(await readShortBranchName(gitDir, "main")).toBeUndefined();
    expect(await resolveCommit(gitDir, "main")).toBe(tagged);
  });

  it("lists every branch, nested or packed, as git does", async () => {
    const tip = (await branchSha(gitDir, "main")) ?? "";
    await git(gitDir, ["update-ref", "refs/heads/locus/issue-1", tip]);
    await git(gitDir, ["pack-refs", "--all"]);
    await git(gitDir, ["update-ref", "refs/heads/locus/wip/issue-2", tip]);
    const listed = await git(gitDir, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"]);
    const expected = new Map(
      listed
        .trim()
        .split("\n")
        .map((line) => line.split(" ") as [string, string]),
    );
    expect(await readBranchTips(gitDir)).toEqual(expected);
    expect(readBranchTipsSync(gitDir)).toEqual(expected);
    expect(expected.size).toBe(3);
  });
});
