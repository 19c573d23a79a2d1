/**
 * The Action's own check before a round on a PR: it does not take the app's word. A fork's PR,
 * a person's PR without `pr.humanPrs`, and a PR in Locus's name without its label are refused
 * with one comment; a person's PR in this repository with the setting is worked on.
 */
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../lib/config/schema.ts";
import type { PullRequest, PullRequestFeedback } from "../../../lib/github/index.ts";
import { readLocusPullRequest } from "../../../lib/pull-request/locus-pull-request.ts";

const BOT = "locus-app[bot]";

function world(options: { humanPrs: boolean; fromFork: boolean; author?: string; headRef?: string }) {
  const comments: string[] = [];
  const pr: PullRequest = {
    number: 7,
    title: "Say hey",
    body: "",
    state: "open",
    merged: false,
    draft: false,
    head: { ref: options.headRef ?? "dana/hey", sha: "a".repeat(40) },
    base: { ref: "main" },
    author: options.author ?? "dana",
    url: "https://github.example/o/r/pull/7",
    fromFork: options.fromFork,
  };
  const read = {
    defaultBranch: "main",
    runCreatedAt: null,
    spend: null,
    pr: { ...pr, nodeId: "PR_7", labels: [] },
    comments: [],
    reviews: [],
    threads: [],
    linkedIssue: null,
  } satisfies PullRequestFeedback;
  const ctx = {
    config: configSchema.parse({ pr: { humanPrs: options.humanPrs } }),
    run: { id: "1", worktreeRoot: "/tmp", actor: BOT, repositoryUrl: "https://github.example/o/r" },
    clock: { now: () => new Date("2026-11-29T00:00:00Z") },
    identity: { login: BOT, id: 1 },
    gateway: {
      getPullRequestFeedback: () => Promise.resolve(read),
      getPullRequest: () => Promise.resolve(pr),
      createComment: (_number: number, body: string) => {
        comments.push(body);
        const at = "2026-11-29T00:00:00Z";
        return Promise.resolve({
          id: comments.length,
          body,
          author: BOT,
          authorType: "Bot",
          authorAssociation: "NONE",
          createdAt: at,
          updatedAt: at,
          url: "",
        });
      },
    },
  };
  return { ctx, comments };
}

describe("readLocusPullRequest on a PR Locus did not open", () => {
  it("works on a person's PR in this repository with pr.humanPrs", async () => {
    const { ctx, comments } = world({ humanPrs: true, fromFork: false });
    const found = await readLocusPullRequest(ctx, 7, "Locus iterates only on its own.", "iterate");
    expect(found.ok && found.owner).toBe("person");
    expect(comments).toEqual([]);
  });

  it("refuses a fork's PR once, even with pr.humanPrs", async () => {
    const { ctx, comments } = world({ humanPrs: true, fromFork: true });
    const found = await readLocusPullRequest(ctx, 7, "Locus iterates only on its own.", "iterate");
    expect(found.ok).toBe(false);
    expect(comments).toEqual([expect.stringContaining("from a fork")]);
  });

  it("refuses a person's PR without pr.humanPrs, naming the setting", async () => {
    const { ctx, comments } = world({ humanPrs: false, fromFork: false });
    const found = await readLocusPullRequest(ctx, 7, "Locus iterates only on its own.", "iterate");
    expect(found.ok).toBe(false);
    expect(comments).toEqual([expect.stringContaining("`pr.humanPrs: true`")]);
  });

  it("refuses a PR in Locus's name without Locus's label: neither its task nor a person's", async () => {
    const { ctx, comments } = world({
      humanPrs: true,
      fromFork: false,
      author: BOT,
      headRef: "locus/issue-3",
    });
    const found = await readLocusPullRequest(ctx, 7, "Locus iterates only on its own.", "iterate");
    expect(found.ok).toBe(false);
    expect(comments).toEqual([expect.stringContaining("not a Locus pull request")]);
  });

  it("refuses a person's PR in a mode that cannot work on one (fix-ci, rebase)", async () => {
    const { ctx, comments } = world({ humanPrs: true, fromFork: false });
    const found = await readLocusPullRequest(ctx, 7, "Locus rebases only its own.");
    expect(found.ok).toBe(false);
    expect(comments).toEqual([expect.stringContaining("not a Locus pull request")]);
  });
});
