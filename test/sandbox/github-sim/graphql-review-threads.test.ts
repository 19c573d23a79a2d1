import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { git, pushBranch, startTestSim } from "./harness.ts";
import type { Client, TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };

const threadsQuery = `
  query Threads($number: Int!) {
    repository(owner: "octocat", name: "hello") {
      pullRequest(number: $number) {
        id
        reviewThreads(first: 10) {
          nodes {
            id isResolved isOutdated path line originalLine viewerCanResolve
            resolvedBy { login }
            comments(first: 10) { nodes { databaseId body diffHunk lastEditedAt author { __typename login } } }
          }
        }
        closingIssuesReferences(first: 5) { nodes { number } }
      }
    }
  }`;

const answerMutation = `
  mutation Answer($thread: ID!, $pr: ID!) {
    reply: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $thread, body: "Done." }) {
      comment { body author { login } }
    }
    resolve: resolveReviewThread(input: { threadId: $thread }) { thread { isResolved resolvedBy { login } } }
    comment: addComment(input: { subjectId: $pr, body: "All addressed." }) { commentEdge { node { body } } }
  }`;

interface Thread {
  id: string;
  isResolved: boolean;
  isOutdated: boolean;
  line: number | null;
  originalLine: number;
  viewerCanResolve: boolean;
  resolvedBy: { login: string } | null;
  comments: { nodes: { databaseId: number; body: string; diffHunk: string; author: { login: string } }[] };
}

interface ThreadsData {
  repository: {
    pullRequest: {
      id: string;
      reviewThreads: { nodes: Thread[] };
      closingIssuesReferences: { nodes: { number: number }[] };
    } | null;
  };
}

describe("GraphQL review threads", () => {
  let t: TestSim;
  let owner: Client;
  let gitDir: string;
  let pull: number;
  let issue: number;

  beforeEach(async () => {
    t = await startTestSim();
    const seeded = await t.sim.seed.repo("octocat/hello", { files: { "a.txt": "one\ntwo\nthree\n" } });
    seeded.collaborator("reader", "read");
    gitDir = seeded.gitDir;
    owner = t.client(t.sim.as("octocat"));
    issue = (await owner.rest.issues.create({ ...repo, title: "Fix two" })).data.number;
    await pushBranch(gitDir, t.tempDir, "feature", { "a.txt": "one\nTWO\nthree\n" });
    pull = (
      await owner.rest.pulls.create({
        ...repo,
        head: "feature",
        base: "main",
        title: "Two",
        body: `Closes #${issue}`,
      })
    ).data.number;
    await t.client(t.sim.as("reviewer")).rest.pulls.createReview({
      ...repo,
      pull_number: pull,
      event: "COMMENT",
      body: "",
      comments: [{ path: "a.txt", line: 2, body: "Lower case, please." }],
    });
  });
  afterEach(() => t.close());

  async function graphql<T>(login: string, query: string, variables: Record<string, unknown>) {
    const response = await fetch(t.sim.graphqlUrl, {
      method: "POST",
      headers: { authorization: `bearer ${t.sim.as(login)}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data: T; errors?: { type?: string; message: string }[] };
  }

  const threadsOf = async (login = "octocat") =>
    (await graphql<ThreadsData>(login, threadsQuery, { number: pull })).data.repository.pullRequest!;

  it("lists a thread with its comments and the issue the PR closes", async () => {
    const pr = await threadsOf();
    expect(pr.closingIssuesReferences.nodes).toEqual([{ number: issue }]);
    const [thread] = pr.reviewThreads.nodes;
    expect(thread).toMatchObject({
      isResolved: false,
      isOutdated: false,
      path: "a.txt",
      line: 2,
      viewerCanResolve: true,
      resolvedBy: null,
    });
    expect(thread?.id).toMatch(/^PRRT_/);
    expect(thread?.comments.nodes[0]).toMatchObject({ body: "Lower case, please.", lastEditedAt: null });
    expect(thread?.comments.nodes[0]?.diffHunk).toContain("+TWO");
    expect((await threadsOf("reader")).reviewThreads.nodes[0]?.viewerCanResolve).toBe(false);
  });

  it("replies, resolves and comments in one document, in order, with their webhooks", async () => {
    const pr = await threadsOf();
    const thread = pr.reviewThreads.nodes[0]!;
    const before = t.sim.webhooks.deliveries.length;

    const answer = await graphql<Record<string, unknown>>("octocat", answerMutation, {
      thread: thread.id,
      pr: pr.id,
    });

    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      reply: { comment: { body: "Done.", author: { login: "octocat" } } },
      resolve: { thread: { isResolved: true, resolvedBy: { login: "octocat" } } },
      comment: { commentEdge: { node: { body: "All addressed." } } },
    });
    const after = (await threadsOf()).reviewThreads.nodes[0]!;
    expect(after.isResolved).toBe(true);
    expect(after.comments.nodes.map((c) => c.body)).toEqual(["Lower case, please.", "Done."]);
    const replies = await owner.rest.pulls.listReviewComments({ ...repo, pull_number: pull });
    expect(replies.data.at(-1)?.in_reply_to_id).toBe(thread.comments.nodes[0]?.databaseId);
    const comments = await owner.rest.issues.listComments({ ...repo, issue_number: pull });
    expect(comments.data.at(-1)?.body).toBe("All addressed.");
    await t.sim.settle();
    expect(t.sim.webhooks.deliveries.slice(before).map((d) => d.event)).toEqual([
      "pull_request_review_comment",
      "pull_request_review_thread",
      "issue_comment",
    ]);
  });

  it("refuses to resolve for someone who can only read, and names an unknown thread", async () => {
    const thread = (await threadsOf()).reviewThreads.nodes[0]!;
    const refused = await graphql<unknown>(
      "reader",
      `
        mutation Refused($thread: ID!) {
          resolve: resolveReviewThread(input: { threadId: $thread }) {
            thread {
              isResolved
            }
          }
          comment: addComment(input: { subjectId: "PR_unknown", body: "x" }) {
            commentEdge {
              node {
                body
              }
            }
          }
        }
      `,
      { thread: thread.id },
    );
    expect(refused.errors?.map((e) => e.type)).toEqual(["FORBIDDEN", "NOT_FOUND"]);
    expect((await threadsOf()).reviewThreads.nodes[0]?.isResolved).toBe(false);
  });

  it("marks a thread outdated once a push changes its line, and drops its line", async () => {
    const clone = join(t.tempDir, "pusher");
    await git(t.tempDir, ["clone", "--quiet", "--branch", "feature", gitDir, clone]);
    await writeFile(join(clone, "a.txt"), "one\ntwo\nthree\n");
    await git(clone, ["commit", "--quiet", "-am", "lower case"]);
    await git(clone, ["push", "--quiet", "origin", "feature"]);

    const thread = (await threadsOf()).reviewThreads.nodes[0];

    expect(thread).toMatchObject({ isOutdated: true, line: null, originalLine: 2 });
  });

  it("answers a PR number that names nothing with NOT_FOUND, as GitHub does", async () => {
    const missing = await graphql<ThreadsData>("octocat", threadsQuery, { number: 999 });
    expect(missing.data.repository.pullRequest).toBeNull();
    expect(missing.errors?.[0]).toMatchObject({
      type: "NOT_FOUND",
      message: "Could not resolve to a PullRequest with the number of 999.",
    });
  });
});
