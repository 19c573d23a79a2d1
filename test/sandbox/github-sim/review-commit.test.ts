import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RequestError } from "@octokit/request-error";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { git, pushBranch, startTestSim } from "./harness.ts";
import type { Client, TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };
const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);

describe("a review's commit_id", () => {
  let t: TestSim;
  let owner: Client;
  let gitDir: string;

  beforeEach(async () => {
    t = await startTestSim();
    gitDir = (await t.sim.seed.repo("octocat/hello", { files: { "a.txt": `${LINES.join("\n")}\n` } })).gitDir;
    owner = t.client(t.sim.as("octocat"));
  });
  afterEach(() => t.close());

  /** A PR changing line 20, then a second push that inserts ten lines above it: line 20 leaves the diff. */
  async function movedPull(): Promise<{ pull: number; first: string; second: string }> {
    const changed = LINES.map((line, i) => (i === 19 ? "LINE TWENTY" : line));
    const first = await pushBranch(gitDir, t.tempDir, "feature", { "a.txt": `${changed.join("\n")}\n` });
    const pr = await owner.rest.pulls.create({
      ...repo,
      head: "octocat:feature",
      base: "main",
      title: "Twenty",
    });
    const clone = join(t.tempDir, "mover");
    await git(t.tempDir, ["clone", "--quiet", "--branch", "feature", gitDir, clone]);
    await writeFile(
      join(clone, "a.txt"),
      `${[...LINES.slice(0, 10).map((line) => `new ${line}`), ...changed].join("\n")}\n`,
    );
    await git(clone, ["commit", "--quiet", "-am", "insert lines"]);
    await git(clone, ["push", "--quiet", "origin", "feature"]);
    const second = (await git(clone, ["rev-parse", "HEAD"])).trim();
    return { pull: pr.data.number, first, second };
  }

  it("anchors line comments to the diff of that commit, not the moved head", async () => {
    const { pull, first, second } = await movedPull();
    const anchored = { path: "a.txt", line: 20, body: "spell it out" };

    const atFirst = await owner.rest.pulls.createReview({
      ...repo,
      pull_number: pull,
      event: "COMMENT",
      body: "pinned",
      commit_id: first,
      comments: [anchored],
    });
    const unpinned = await owner.rest.pulls
      .createReview({ ...repo, pull_number: pull, event: "COMMENT", body: "head", comments: [anchored] })
      .catch((error: unknown) => error);

    expect(atFirst.data.commit_id).toBe(first);
    const comments = await owner.rest.pulls.listReviewComments({ ...repo, pull_number: pull });
    expect(comments.data.map((c) => [c.line, c.commit_id])).toEqual([[20, first]]);
    expect(unpinned).toBeInstanceOf(RequestError);
    expect((unpinned as RequestError).status).toBe(422);
    const head = await owner.rest.pulls.createReview({
      ...repo,
      pull_number: pull,
      event: "COMMENT",
      body: "x",
    });
    expect(head.data.commit_id).toBe(second);
  });

  it("refuses a SHA that names no commit with 422", async () => {
    const { pull } = await movedPull();

    for (const commitId of ["0".repeat(40), "abc123", "main"]) {
      const error = await owner.rest.pulls
        .createReview({ ...repo, pull_number: pull, event: "COMMENT", body: "x", commit_id: commitId })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).status).toBe(422);
      expect((error as RequestError).response?.data).toMatchObject({
        errors: [`No commit found for SHA: ${commitId}`],
      });
    }
    expect((await owner.rest.pulls.listReviews({ ...repo, pull_number: pull })).data).toEqual([]);
  });
});
