/**
 * The app's side of `pr.humanPrs`: with it on, a writer's `/locus iterate` on a person's PR in this
 * repository dispatches a round; `/locus rebase` there is refused (it would rewrite their commits);
 * without it, the reply names the setting (sprint-and-pull-requests.test.ts).
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comment, commentsOf, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;

beforeAll(async () => {
  h = await startAppHarness({ config: "version: 3\npr:\n  humanPrs: true\n" });
});

afterAll(async () => {
  await h.close();
});

async function personsPullRequest(branch: string): Promise<number> {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", h.repo.gitDir, ...args], { encoding: "utf8" }).trim();
  const commit = git("commit-tree", git("rev-parse", "main^{tree}"), "-p", "main", "-m", "human");
  git("update-ref", `refs/heads/${branch}`, commit);
  const { data: pr } = await h
    .as("alice")
    .rest.pulls.create({ owner, repo, title: "human", head: branch, base: "main" });
  await h.settle();
  return pr.number;
}

describe("pr.humanPrs on", () => {
  it("dispatches /locus iterate on a person's PR in this repository", async () => {
    const pr = await personsPullRequest("feature/iterate-me");
    await comment(h, "alice", pr, "/locus iterate keep it short");
    expect(
      runs(h)
        .filter((run) => run.inputs.pr === String(pr))
        .map((run) => [run.inputs.mode, run.inputs.command]),
    ).toEqual([["iterate", "keep it short"]]);
  });

  it("refuses /locus rebase on a person's PR: rebasing rewrites their commits", async () => {
    const pr = await personsPullRequest("feature/rebase-me");
    await comment(h, "alice", pr, "/locus rebase");
    expect((await commentsOf(h, pr)).at(-1)).toContain("rewrites their commits");
    expect(runs(h).filter((run) => run.inputs.pr === String(pr))).toHaveLength(0);
  });
});
