import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../../lib/app/app-context.ts";
import { replyToComment, type AnsweredComment } from "../../../lib/triggers/reply-to-comment.ts";
import { defaultConfig } from "../../../lib/config/index.ts";
import {
  createActionOctokit,
  createGateway,
  type GitHubGateway,
  type Log,
} from "../../../lib/github/index.ts";
import { repliedCommentId } from "../../../lib/markers.ts";
import { startGitHubSimulator, type GitHubSimulator } from "../../../sandbox/github-sim/index.ts";

const quiet: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const REDELIVERED = "guid-the-sweeper-asked-for";

let sim: GitHubSimulator;

beforeAll(async () => {
  sim = await startGitHubSimulator();
  const repo = await sim.seed.repo("octo/demo", { files: { "README.md": "# demo\n" } });
  repo.collaborator("locus-bot", "write");
  repo.collaborator("alice", "write");
});
afterAll(async () => {
  await sim.close();
});

function gatewayAs(login: string): GitHubGateway {
  const octokit = createActionOctokit({
    token: sim.as(login),
    baseUrl: sim.apiUrl,
    log: quiet,
    retryUnitMs: 0,
    minWriteIntervalMs: 0,
  });
  return createGateway({
    ownLogins: ["locus-bot"],
    octokit,
    repo: { owner: "octo", repo: "demo" },
    log: quiet,
  });
}

function context(delivery: string): AppContext {
  return {
    gateway: gatewayAs("locus-bot"),
    config: defaultConfig(),
    delivery,
    redeliveryRequested: (guid) => guid === REDELIVERED,
    defaultBranch: "main",
    log: quiet,
    selfLogins: ["Locus-Bot"],
    permissionOf: () => Promise.resolve("write"),
    now: () => new Date(),
  };
}

/** An issue with alice's `/locus help` on it, as its event names the comment. */
async function askedForHelp(): Promise<AnsweredComment> {
  const alice = gatewayAs("alice");
  const issue = await alice.createIssue({ title: "Help", body: "." });
  const comment = await alice.createComment(issue.number, "/locus help");
  return { issue: issue.number, id: comment.id, createdAt: comment.createdAt };
}

async function repliesTo(answered: AnsweredComment): Promise<string[]> {
  const comments = await gatewayAs("alice").listIssueComments(answered.issue);
  return comments
    .filter((comment) => repliedCommentId(comment.body) === answered.id)
    .map((comment) => comment.author);
}

/** The calls `work` makes to the simulator, as `METHOD path`. */
async function callsOf(work: () => Promise<unknown>): Promise<string[]> {
  const before = sim.requestLog.length;
  await work();
  return sim.requestLog.slice(before).map((entry) => `${entry.method} ${entry.path.split("?")[0] ?? ""}`);
}

describe("replyToComment", () => {
  it("answers a first delivery at once, with no read, and marks the reply", async () => {
    const answered = await askedForHelp();
    const calls = await callsOf(() => replyToComment(context("first-time"), answered, "Commands…"));
    expect(calls).toEqual([`POST /repos/octo/demo/issues/${answered.issue}/comments`]);
    expect(await repliesTo(answered)).toEqual(["locus-bot"]);
  });

  it("posts nothing for a requested redelivery of a comment it already answered, after one read", async () => {
    const answered = await askedForHelp();
    await replyToComment(context("first-time"), answered, "Commands…");
    let outcome: unknown;
    const calls = await callsOf(async () => {
      outcome = await replyToComment(context(REDELIVERED), answered, "Commands…");
    });
    expect(outcome).toBe("already-answered");
    expect(calls).toEqual([`GET /repos/octo/demo/issues/${answered.issue}/comments`]);
    expect(await repliesTo(answered)).toEqual(["locus-bot"]);
  });

  it("answers a requested redelivery whose first delivery never replied", async () => {
    const answered = await askedForHelp();
    expect(await replyToComment(context(REDELIVERED), answered, "Commands…")).toBe("posted");
    expect(await repliesTo(answered)).toEqual(["locus-bot"]);
  });

  it("counts only its own reply to that comment: a typed marker or a reply to another comment is no answer", async () => {
    const answered = await askedForHelp();
    const alice = gatewayAs("alice");
    await alice.createComment(answered.issue, `I answer it myself\n<!-- locus:reply-to:${answered.id} -->`);
    const other = await alice.createComment(answered.issue, "/locus status");
    await replyToComment(context("first-time"), { ...answered, id: other.id }, "#1 is not queued.");

    expect(await replyToComment(context(REDELIVERED), answered, "Commands…")).toBe("posted");
    expect(await repliesTo(answered)).toEqual(["alice", "locus-bot"]);
  });
});
