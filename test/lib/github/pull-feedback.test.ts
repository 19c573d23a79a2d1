import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import {
  startGitHubSimulator,
  type GitHubSimulator,
  type RepoSeeder,
} from "../../../sandbox/github-sim/index.ts";
import type { GitHubGateway } from "../../../lib/github/index.ts";
import { simulatorGateway } from "./helpers.ts";
import { issueOfBranch } from "../../../lib/naming/branches.ts";

const exec = promisify(execFile);

let sim: GitHubSimulator;
let repo: RepoSeeder;
let dir: string;
let clone: string;
let locus: GitHubGateway;

function gateway(token: string): GitHubGateway {
  return simulatorGateway({
    apiUrl: sim.apiUrl,
    token,
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: [sim.app.botLogin],
  });
}

async function git(args: string[]): Promise<void> {
  await exec("git", args, {
    cwd: clone,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: dir,
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

/** A branch with one commit on top of `from`, pushed. */
async function branch(name: string, from: string): Promise<void> {
  await git(["checkout", "--quiet", "-B", name, `origin/${from}`]);
  await writeFile(join(clone, `${name.replace(/\W/g, "-")}.txt`), `${name}\n`);
  await git(["add", "."]);
  await git(["commit", "--quiet", "-m", name]);
  await git(["push", "--quiet", "origin", `${name}:refs/heads/${name}`]);
  await git(["fetch", "--quiet", "origin"]);
}

/** The GraphQL requests `work` sends, by operation name. */
async function operations(work: () => Promise<unknown>): Promise<(string | null)[]> {
  const start = sim.requestLog.length;
  await work();
  return sim.requestLog.slice(start).map((e) => e.operationName);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pull-feedback-test-"));
  sim = await startGitHubSimulator({ delay: () => Promise.resolve(), workDir: join(dir, "sim") });
  repo = await sim.seed.repo("acme/widgets", { files: { "README.md": "# widgets\n" } });
  repo.collaborator("rev", "write");
  locus = gateway(mintInstallationToken(sim.store, sim.seed.installation("acme").id).token);
  clone = join(dir, "clone");
  await exec("git", ["clone", "--quiet", repo.gitDir, clone]);
}, 60_000);

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe("getPullRequestFeedback", () => {
  it("reads a PR into the default branch and the issue it closes, with every comment: a first page of 10, then 100 a request", async () => {
    const issue = await locus.createIssue({ title: "Greet", labels: ["locus:in-review"] });
    await branch(`locus/issue-${issue.number}`, "main");
    const pr = await locus.createPullRequest({
      title: "Greet",
      body: `Closes #${issue.number}`,
      head: `locus/issue-${issue.number}`,
      base: "main",
    });
    await locus.setLabels(pr.number, ["agent:managed"]);
    await gateway(sim.as("rev")).createComment(pr.number, "Looks close.");
    const few = await operations(() =>
      locus.getPullRequestFeedback(pr.number, { linkedIssue: issueOfBranch }),
    );
    expect(few).toEqual(["PullRequestFeedback"]);
    for (let i = 1; i <= 120; i++) await repo.comment(issue.number, `comment ${i}`);
    await locus.createComment(issue.number, "<!-- locus:status -->\nWorking.");

    let read: Awaited<ReturnType<GitHubGateway["getPullRequestFeedback"]>> = null;
    const sent = await operations(async () => {
      read = await locus.getPullRequestFeedback(pr.number, { linkedIssue: issueOfBranch });
    });

    expect(sent).toEqual(["PullRequestFeedback", "IssueComments", "IssueComments"]);
    expect(read!.runCreatedAt).toBeNull();
    expect(read!.pr).toMatchObject({
      number: pr.number,
      state: "open",
      merged: false,
      head: { ref: `locus/issue-${issue.number}` },
      base: { ref: "main" },
      author: sim.app.botLogin,
      labels: ["agent:managed"],
    });
    expect(read!.pr.nodeId).toMatch(/^PR_/);
    expect(read!.comments.map((c) => [c.author, c.body])).toEqual([["rev", "Looks close."]]);
    const linked = read!.linkedIssue!;
    expect(linked.number).toBe(issue.number);
    expect(linked.labels).toEqual(["locus:in-review"]);
    expect(linked.comments).toHaveLength(121);
    expect(linked.comments.at(-1)).toMatchObject({ author: sim.app.botLogin, authorType: "Bot" });
  });

  it("reads a review thread past its first page of 10 comments, by the thread's id", async () => {
    const issue = await locus.createIssue({ title: "Thread" });
    const head = `locus/issue-${issue.number}`;
    await branch(head, "main");
    const pr = await locus.createPullRequest({
      title: "Thread",
      body: `Closes #${issue.number}`,
      head,
      base: "main",
    });
    const reviewer = sim.as("rev");
    const post = async (body: Record<string, unknown>): Promise<{ id: number }> => {
      const response = await fetch(`${sim.apiUrl}/repos/acme/widgets/pulls/${pr.number}/comments`, {
        method: "POST",
        headers: { authorization: `token ${reviewer}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: number };
    };
    const root = await post({
      body: "note 1",
      path: `${head.replace(/\W/g, "-")}.txt`,
      line: 1,
      side: "RIGHT",
    });
    for (let i = 2; i <= 12; i++) await post({ body: `note ${i}`, in_reply_to: root.id });

    let read: Awaited<ReturnType<GitHubGateway["getPullRequestFeedback"]>> = null;
    const sent = await operations(async () => {
      read = await locus.getPullRequestFeedback(pr.number, { linkedIssue: issueOfBranch });
    });

    expect(sent).toEqual(["PullRequestFeedback", "ReviewThreadComments"]);
    expect(read!.threads).toHaveLength(1);
    expect(read!.threads[0]!.comments.map((c) => c.body)).toEqual(
      Array.from({ length: 12 }, (_, i) => `note ${i + 1}`),
    );
    expect(read!.threads[0]!.comments.every((c) => c.author === "rev")).toBe(true);
  });

  it("reads review threads past the first page of 20, 100 a request", async () => {
    const issue = await locus.createIssue({ title: "Threads" });
    const head = `locus/issue-${issue.number}`;
    await branch(head, "main");
    const pr = await locus.createPullRequest({
      title: "Threads",
      body: `Closes #${issue.number}`,
      head,
      base: "main",
    });
    const reviewer = sim.as("rev");
    for (let i = 1; i <= 21; i++) {
      const response = await fetch(`${sim.apiUrl}/repos/acme/widgets/pulls/${pr.number}/comments`, {
        method: "POST",
        headers: { authorization: `token ${reviewer}`, "content-type": "application/json" },
        body: JSON.stringify({
          body: `thread ${i}`,
          path: `${head.replace(/\W/g, "-")}.txt`,
          line: 1,
          side: "RIGHT",
        }),
      });
      expect(response.status).toBe(201);
    }

    let read: Awaited<ReturnType<GitHubGateway["getPullRequestFeedback"]>> = null;
    const sent = await operations(async () => {
      read = await locus.getPullRequestFeedback(pr.number, { linkedIssue: issueOfBranch });
    });

    expect(sent).toEqual(["PullRequestFeedback", "ReviewThreads"]);
    expect(read!.threads.map((thread) => thread.comments.map((c) => c.body))).toEqual(
      Array.from({ length: 21 }, (_, i) => [`thread ${i + 1}`]),
    );
  });

  it("reads a stacked PR's issue by number, as GitHub links closing keywords only into the default branch", async () => {
    const below = await locus.createIssue({ title: "Below" });
    const above = await locus.createIssue({ title: "Above" });
    await branch(`locus/issue-${below.number}`, "main");
    await branch(`locus/issue-${above.number}`, `locus/issue-${below.number}`);
    const pr = await locus.createPullRequest({
      title: "Above",
      body: `Closes #${above.number}`,
      head: `locus/issue-${above.number}`,
      base: `locus/issue-${below.number}`,
    });

    let read: Awaited<ReturnType<GitHubGateway["getPullRequestFeedback"]>> = null;
    const sent = await operations(async () => {
      read = await locus.getPullRequestFeedback(pr.number, { linkedIssue: issueOfBranch });
    });

    expect(sent).toEqual(["PullRequestFeedback", "LinkedIssue"]);
    expect(read!.linkedIssue?.title).toBe("Above");
  });

  it("answers null for a number that is no pull request, and no issue for a branch that names none", async () => {
    const issue = await locus.createIssue({ title: "Not a PR" });
    await branch("feature/plain", "main");
    const pr = await locus.createPullRequest({
      title: "Plain",
      body: "",
      head: "feature/plain",
      base: "main",
    });

    expect(await locus.getPullRequestFeedback(issue.number, { linkedIssue: issueOfBranch })).toBeNull();
    const sent = await operations(async () => {
      expect(
        (await locus.getPullRequestFeedback(pr.number, { linkedIssue: issueOfBranch }))?.linkedIssue,
      ).toBeNull();
    });
    expect(sent).toEqual(["PullRequestFeedback"]);
  });
});
