/**
 * Merges by merge, squash and rebase, and GitHub's retargeting of the
 * pull requests stacked on a merged pull request once its branch is deleted.
 */
import { afterEach, describe, expect, it } from "vitest";
import { git, pushBranch, startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };
let t: TestSim;
afterEach(() => t.close());

async function start(): Promise<{ client: Client; gitDir: string }> {
  t = await startTestSim();
  const seeded = await t.sim.seed.repo("octocat/hello", { files: { "a.txt": "one\n" } });
  return { client: t.client(t.sim.as("octocat")), gitDir: seeded.gitDir };
}

async function log(gitDir: string, range: string): Promise<string[]> {
  const out = await git(t.tempDir, ["--git-dir", gitDir, "log", "--format=%an|%cn|%s", range]);
  return out.trim().split("\n");
}

describe("merge methods", () => {
  it("rebase replays each commit onto the base, keeping its author", async () => {
    const { client, gitDir } = await start();
    await pushBranch(gitDir, t.tempDir, "feature", { "b.txt": "b\n" }, "add b");
    const before = (await client.rest.repos.getBranch({ ...repo, branch: "main" })).data.commit.sha;
    await client.rest.pulls.create({ ...repo, title: "Feature", head: "feature", base: "main" });

    const { data } = await client.rest.pulls.merge({ ...repo, pull_number: 1, merge_method: "rebase" });

    expect(data.merged).toBe(true);
    expect(await log(gitDir, `${before}..main`)).toEqual(["Test|octocat|add b"]);
    const parents = await git(t.tempDir, ["--git-dir", gitDir, "rev-list", "--parents", "-n", "1", "main"]);
    expect(parents.trim().split(" ")).toHaveLength(2);
  });

  it.each(["merge", "squash"] as const)("%s still merges", async (method) => {
    const { client, gitDir } = await start();
    await pushBranch(gitDir, t.tempDir, "feature", { "b.txt": "b\n" }, "add b");
    await client.rest.pulls.create({ ...repo, title: "Feature", head: "feature", base: "main" });

    const { data } = await client.rest.pulls.merge({ ...repo, pull_number: 1, merge_method: method });

    expect(data.merged).toBe(true);
    expect((await log(gitDir, "main"))[0]).toMatch(
      method === "merge" ? /Merge pull request #1/ : /Feature \(#1\)/,
    );
  });
});

describe("deleting a merged pull request's branch", () => {
  it("retargets the pull requests based on it to the merged one's base", async () => {
    const { client, gitDir } = await start();
    await pushBranch(gitDir, t.tempDir, "lower", { "b.txt": "b\n" }, "lower");
    const clone = `${t.tempDir}/upper`;
    await git(t.tempDir, ["clone", "--quiet", "--branch", "lower", gitDir, clone]);
    await git(clone, ["checkout", "--quiet", "-b", "upper"]);
    await git(clone, ["commit", "--quiet", "--allow-empty", "-m", "upper"]);
    await git(clone, ["push", "--quiet", "origin", "upper"]);
    await client.rest.pulls.create({ ...repo, title: "Lower", head: "lower", base: "main" });
    await client.rest.pulls.create({ ...repo, title: "Upper", head: "upper", base: "lower" });
    await client.rest.pulls.merge({ ...repo, pull_number: 1, merge_method: "squash" });

    await client.rest.git.deleteRef({ ...repo, ref: "heads/lower" });
    await t.sim.settle();

    const { data: upper } = await client.rest.pulls.get({ ...repo, pull_number: 2 });
    expect([upper.state, upper.base.ref]).toEqual(["open", "main"]);
    const edited = t.sim.webhooks.deliveries.find((d) => d.event === "pull_request" && d.action === "edited");
    expect(edited?.payload).toMatchObject({ number: 2, changes: { base: { ref: { from: "lower" } } } });
  });

  it("closes them when the branch was no merged pull request's head", async () => {
    const { client, gitDir } = await start();
    await pushBranch(gitDir, t.tempDir, "lower", { "b.txt": "b\n" }, "lower");
    await pushBranch(gitDir, t.tempDir, "upper", { "c.txt": "c\n" }, "upper");
    await client.rest.pulls.create({ ...repo, title: "Upper", head: "upper", base: "lower" });

    await client.rest.git.deleteRef({ ...repo, ref: "heads/lower" });

    const { data: upper } = await client.rest.pulls.get({ ...repo, pull_number: 1 });
    expect(upper.state).toBe("closed");
  });
});
