/**
 * The app's side of `pr.humanPrs`: with it on, a writer's `/locus iterate` or `/locus fix-ci` on a
 * person's PR in this repository dispatches a round; `/locus rebase` there is refused (it would
 * rewrite their commits), and so is every command on a fork's PR; without it, the reply names the
 * setting (here for fix-ci, in sprint-and-pull-requests.test.ts for iterate).
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

async function personsPullRequest(h: AppHarness, branch: string): Promise<number> {
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
    const pr = await personsPullRequest(h, "feature/iterate-me");
    await comment(h, "alice", pr, "/locus iterate keep it short");
    expect(
      runs(h)
        .filter((run) => run.inputs.pr === String(pr))
        .map((run) => [run.inputs.mode, run.inputs.command]),
    ).toEqual([["iterate", "keep it short"]]);
  });

  it("refuses /locus rebase on a person's PR: rebasing rewrites their commits", async () => {
    const pr = await personsPullRequest(h, "feature/rebase-me");
    await comment(h, "alice", pr, "/locus rebase");
    expect((await commentsOf(h, pr)).at(-1)).toContain("rewrites their commits");
    expect(runs(h).filter((run) => run.inputs.pr === String(pr))).toHaveLength(0);
  });

  it("dispatches /locus fix-ci on a person's PR in this repository, its status on the PR itself", async () => {
    const pr = await personsPullRequest(h, "feature/fix-my-ci");
    await comment(h, "alice", pr, "/locus fix-ci");
    expect(
      runs(h)
        .filter((run) => run.inputs.pr === String(pr))
        .map((run) => run.inputs.mode),
    ).toEqual(["fix-ci"]);
    expect((await commentsOf(h, pr)).some((body) => body.includes("Fixing the CI failure on PR #"))).toBe(
      true,
    );
  });

  it("refuses /locus fix-ci and /locus iterate on a fork's PR, setting or not", async () => {
    const pr = await personsPullRequest(h, "feature/from-a-fork");
    await h.sim.seed.repo(`mallory/${repo}`, { install: false });
    const pull = h.repo.repo.issues.get(pr)?.pull;
    if (!pull) throw new Error(`no pull request #${pr}`);
    pull.headRepository = `mallory/${repo}`;
    await comment(h, "alice", pr, "/locus fix-ci");
    await comment(h, "alice", pr, "/locus iterate");
    const replies = (await commentsOf(h, pr)).filter((body) => !body.startsWith("/locus"));
    expect(replies).toEqual([
      expect.stringContaining("`/locus fix-ci` does not work on a pull request from a fork"),
      expect.stringContaining("`/locus iterate` does not work on a pull request from a fork"),
    ]);
    expect(runs(h).filter((run) => run.inputs.pr === String(pr))).toHaveLength(0);
  });
});

describe("pr.humanPrs off", () => {
  let off: AppHarness;

  beforeAll(async () => {
    off = await startAppHarness({ config: "version: 3\n" });
  });

  afterAll(async () => {
    await off.close();
  });

  it("answers /locus fix-ci on a person's PR with how to turn it on, and dispatches nothing", async () => {
    const pr = await personsPullRequest(off, "feature/not-yet");
    await comment(off, "alice", pr, "/locus fix-ci");
    const reply = (await commentsOf(off, pr)).at(-1);
    expect(reply).toContain("`/locus fix-ci` works on pull requests Locus opened");
    expect(reply).toContain("set `pr.humanPrs: true` in `.github/locus.yml`");
    expect(runs(off).filter((run) => run.inputs.pr === String(pr))).toHaveLength(0);
  });
});
