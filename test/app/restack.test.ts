/**
 * Keeping stacks mergeable, through the real app on the simulator: when a
 * stacked Locus PR is squash-merged, the Locus PR above is retargeted to the
 * merged PR's base and a rebase run restacks it without the lower task's
 * commits; `/locus rebase` dispatches one by hand.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comment, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

/** A Locus task's branch (from `base`, with one commit of a file of its own) and its PR, opened by Locus. */
async function locusTask(title: string, base: string): Promise<{ pr: number; branch: string; head: string }> {
  const issue = await h.repo.issue({ title, labels: ["locus:in-review", "agent:managed"] }, { as: "alice" });
  const branch = `locus/issue-${issue.number}`;
  const git = (args: string[], input?: string) =>
    execFileSync("git", ["-C", h.repo.gitDir, ...args], {
      encoding: "utf8",
      ...(input === undefined ? {} : { input }),
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: h.sim.bot.login,
        GIT_AUTHOR_EMAIL: "l@x",
        GIT_COMMITTER_NAME: "l",
        GIT_COMMITTER_EMAIL: "l@x",
      },
    }).trim();
  const blob = git(["hash-object", "-w", "--stdin"], `${title}\n`);
  const parent = git(["rev-parse", base]);
  const listing = git(["ls-tree", parent]);
  const newTree = git(["mktree"], `${listing}\n100644 blob ${blob}\tissue-${issue.number}.txt\n`);
  const head = git(["commit-tree", newTree, "-p", parent, "-m", `feat: ${title} (#${issue.number})`]);
  git(["update-ref", `refs/heads/${branch}`, head]);
  const pr = await h.repo.pull(
    { title, head: branch, base, body: `Closes #${issue.number}` },
    { as: h.sim.app.botLogin },
  );
  return { pr: pr.number, branch, head };
}

function rebaseRuns(pr: number) {
  return runs(h).filter((run) => run.inputs.mode === "rebase" && run.inputs.pr === String(pr));
}

describe("restack on merge", () => {
  it("retargets the PR above a squash-merged Locus PR and dispatches its rebase after the merged head", async () => {
    const bottom = await locusTask("Bottom", "main");
    const middle = await locusTask("Middle", bottom.branch);
    await locusTask("Top", middle.branch);

    await h.as("alice").rest.pulls.merge({ owner, repo, pull_number: bottom.pr, merge_method: "squash" });
    await h.settle();

    const { data } = await h.as("alice").rest.pulls.get({ owner, repo, pull_number: middle.pr });
    expect(data.base.ref).toBe("main");
    expect(rebaseRuns(middle.pr).map((run) => run.inputs.command)).toEqual([`after ${bottom.head}`]);
  });
});

describe("/locus rebase", () => {
  it("dispatches a rebase of a Locus PR", async () => {
    const task = await locusTask("Alone", "main");

    await comment(h, "alice", task.pr, "/locus rebase");

    expect(rebaseRuns(task.pr).map((run) => run.inputs.command)).toEqual([""]);
  });
});
