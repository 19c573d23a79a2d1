/**
 * The typed fake (github-fake.ts) and the real gateway on the simulator, put
 * through one scenario of the writes Locus's lifecycle makes: both must answer
 * the same, so the fake cannot drift from GitHub's behaviour silently; and
 * likewise a review round on a pull request (a person's line comment, Locus's
 * reply that resolves its thread) and what failed in a CI run. Starts
 * the simulator, so it runs in the integration project.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import type { RepoSeeder } from "../../sandbox/github-sim/index.ts";
import { labelWrite, type GitHubGateway, type NewReview } from "../../lib/github/index.ts";
import { failedStepTail } from "../../lib/ci/log-tail.ts";
import { issueOfBranch } from "../../lib/naming/branches.ts";
import { startTestSim, type TestSim } from "../sandbox/github-sim/harness.ts";
import { recordingLog, simulatorGateway } from "../lib/github/helpers.ts";
import { branchCommitScenario } from "./branch-commit-scenario.ts";
import { withDependencyReview, type FakeDependencyReview } from "./fake-dependency-review.ts";
import { createGitHubFake } from "./github-fake.ts";
import { committingToRemote } from "./remote-commits.ts";

let t: TestSim;
let real: GitHubGateway;
let bot: string;
let seeded: RepoSeeder;

beforeEach(async () => {
  t = await startTestSim();
  seeded = await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n" } });
  seeded.collaborator("rev", "write");
  const log = recordingLog();
  const token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  bot = t.sim.app.botLogin;
  real = simulatorGateway({
    apiUrl: t.sim.apiUrl,
    token,
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: [bot],
    log,
  });
});
afterEach(() => t.close());

const sorted = (labels: readonly string[] | undefined) => [...(labels ?? [])].sort();

/** A task's life in gateway calls, and what GitHub answered at each step. */
async function lifecycleScenario(gateway: GitHubGateway) {
  const created = await gateway.createIssue({
    title: "Task",
    body: "Do it.",
    labels: ["locus:queued", "p:high"],
  });
  const status = await gateway.createComment(created.number, "<!-- locus:status -->\nQueued.");
  const read = await gateway.readTask(created.number, { managedLabel: "agent:managed" });
  if (!read.issue) throw new Error("the task read found no issue");
  const moment = await gateway.writeMoment([
    labelWrite(read.issue, ["locus:in-progress", "p:high", "agent:managed"]),
    { kind: "comment", comment: status, body: "<!-- locus:status -->\nWorking." },
    { kind: "new-comment", number: created.number, body: "A question." },
  ]);
  const claims = [
    await gateway.removeLabel(created.number, "p:high"),
    await gateway.removeLabel(created.number, "p:high"),
  ];
  const sticky = await gateway.findCommentByMarker(created.number, "locus:status");
  const upserts = [
    (await gateway.upsertComment(created.number, "locus:note", "one")).action,
    (await gateway.upsertComment(created.number, "locus:note", "one")).action,
    (await gateway.upsertComment(created.number, "locus:note", "two")).action,
  ];
  const set = await gateway.setLabels(created.number, ["locus:done", "agent:managed"]);
  const done = await gateway.listIssues({ state: "open", labels: ["locus:done"] });
  const after = await gateway.getIssue(created.number);
  const reread = await gateway.readTask(created.number, { managedLabel: "agent:managed" });
  return {
    created: {
      title: created.title,
      body: created.body,
      labels: sorted(created.labels),
      state: created.state,
    },
    readLabels: sorted(read.issue.labels),
    momentLabels: sorted(moment.labels.get(created.number)),
    momentComment: moment.comments.get(created.number)?.body,
    claims,
    sticky: sticky?.body,
    upserts,
    set: sorted(set),
    done: done.map((issue) => issue.number),
    after: { labels: sorted(after?.labels), comments: after?.comments.map((comment) => comment.body) },
    statusEdited: reread.issue?.comments[0]?.history.lastEditedAt !== null,
    isPullRequest: reread.isPullRequest,
  };
}

/** Milestone moves as a sprint reads them: who put each issue where it is, from its timeline. */
async function milestoneScenario(gateway: GitHubGateway) {
  const first = await gateway.createMilestone({ title: "Sprint A" });
  const second = await gateway.createMilestone({ title: "Sprint B" });
  const born = await gateway.createIssue({ title: "Born in A", milestone: first.number });
  const moved = await gateway.createIssue({ title: "Moved to B" });
  await gateway.updateIssue(moved.number, { milestone: second.number });
  await gateway.updateIssue(moved.number, { milestone: second.number });
  const sprint = await gateway.readSprint(second.number, { managedLabel: "agent:managed" });
  const events = async (number: number) =>
    ((await gateway.readTask(number, { managedLabel: "agent:managed" })).issue?.timeline?.events ?? [])
      .filter((event) => event.kind === "milestoned")
      .map((event) => ({
        kind: event.kind,
        actor: event.actor,
        title: "milestoneTitle" in event ? event.milestoneTitle : "",
      }));
  return {
    born: await events(born.number),
    moved: await events(moved.number),
    sprint: sprint.issues.map((issue) => issue.title),
  };
}

describe("the typed fake", () => {
  it("records milestone moves with their actor, as GitHub's timeline does", async () => {
    const expected = await milestoneScenario(real);
    const faked = await milestoneScenario(createGitHubFake({ self: bot }));
    expect(faked).toEqual(expected);
    expect(expected.moved).toEqual([{ kind: "milestoned", actor: bot, title: "Sprint B" }]);
  });

  it("answers a task's lifecycle writes as the real gateway on the simulator does", async () => {
    const expected = await lifecycleScenario(real);
    const faked = await lifecycleScenario(createGitHubFake({ self: bot }));
    expect(faked).toEqual(expected);
    expect(expected.claims).toEqual([true, false]);
  });
});

/** A person reviewing: on the simulator their own token, on the fake a seeded review. */
type Reviewer = (pr: number, review: NewReview) => Promise<unknown>;

/** A Locus PR for a task, a person's review with a line comment, and Locus's answer. */
async function reviewRoundScenario(gateway: GitHubGateway, reviewer: Reviewer, mainSha: string) {
  const issue = await gateway.createIssue({ title: "Task", labels: ["locus:in-review", "agent:managed"] });
  const branch = `locus/issue-${issue.number}`;
  await gateway.createBranch(branch, mainSha);
  const contents = Buffer.from("two\n").toString("base64");
  const change = { headline: "feat: two", body: "", deletions: [], additions: [{ path: "a.txt", contents }] };
  await gateway.createCommitOnBranch({ branch, expectedHeadOid: mainSha, ...change });
  const opened = await gateway.createPullRequest({ title: "Task", body: "", head: branch, base: "main" });
  await gateway.setLabels(opened.number, ["agent:managed"]);
  const line = { path: "a.txt", line: 1, body: "Say three." };
  await reviewer(opened.number, { event: "REQUEST_CHANGES", body: "Almost.", comments: [line] });
  const options = { linkedIssue: issueOfBranch };
  const read = await gateway.getPullRequestFeedback(opened.number, options);
  if (!read) throw new Error("the feedback read found no pull request");
  const threadId = read.threads[0]?.id ?? "";
  await gateway.answerReviewFeedback([{ threadId, body: "Said three.", resolve: true }], {
    subjectId: read.pr.nodeId,
    body: "Locus addressed the review feedback.",
  });
  const after = await gateway.getPullRequestFeedback(opened.number, options);
  const threadsOf = (feedback: typeof read | null) =>
    feedback?.threads.map(({ isResolved, isOutdated, path, line: at, comments }) => ({
      ...{ isResolved, isOutdated, path, line: at },
      comments: comments.map(({ author, body }) => ({ author, body })),
    }));
  return {
    pr: {
      ...{ state: read.pr.state, merged: read.pr.merged, draft: read.pr.draft, labels: read.pr.labels },
      ...{ head: read.pr.head.ref, base: read.pr.base.ref, author: read.pr.author },
    },
    reviews: read.reviews.map(({ state, body, author, commitId }) => ({
      ...{ state, body, author },
      onHead: commitId === read.pr.head.sha,
    })),
    threads: threadsOf(read),
    linked: { number: read.linkedIssue?.number, labels: sorted(read.linkedIssue?.labels) },
    threadsAfter: threadsOf(after),
    commentsAfter: after?.comments.map(({ author, body }) => ({ author, body })),
    listed: (await gateway.listReviewComments(opened.number)).map(
      ({ body, path, line: at, author, inReplyToId }) => ({
        body,
        path,
        line: at,
        author,
        reply: !!inReplyToId,
      }),
    ),
    listedReviews: (await gateway.listReviews(opened.number)).map(({ state, author }) => ({ state, author })),
    fromFork: (await gateway.getPullRequest(opened.number))?.fromFork,
  };
}

/** What the CI reads answer of a run with a failed and a passing job. */
async function ciScenario(gateway: GitHubGateway, runId: number, headSha: string) {
  const failed = await gateway.ci.failedChecks({ kind: "run", id: runId });
  const first = failed[0];
  if (!first) throw new Error("no check failed");
  const onCommit = await gateway.ci.failedChecks({ kind: "commit", sha: headSha });
  const log = await gateway.ci.jobLog(first.id);
  return {
    failed: failed.map(({ name, conclusion, isJob, failedSteps, output }) => ({
      ...{ name, conclusion, isJob, failedSteps, output },
    })),
    onCommit: onCommit.map(({ name, isJob }) => ({ name, isJob })),
    annotations: await gateway.ci.annotations(first.id, 10),
    tail: log === null ? null : failedStepTail(log),
    head: (await gateway.ci.runHead(runId))?.sha === headSha,
    suiteKnown: (await gateway.ci.suiteUpdatedAt(runId)) !== null,
  };
}

const JOBS = [
  {
    name: "test",
    steps: [
      { name: "install", output: "added 3 packages" },
      { name: "node --test", conclusion: "failure" as const, output: ["✖ greets", "  expected 'Hi'"] },
    ],
  },
  { name: "lint", steps: [{ name: "eslint" }] },
];

describe("the typed fake's pull request rounds", () => {
  it("answers a review round on a Locus PR as the real gateway on the simulator does", async () => {
    const mainSha = execFileSync("git", ["rev-parse", "main"], { cwd: seeded.gitDir }).toString().trim();
    const person = simulatorGateway({
      apiUrl: t.sim.apiUrl,
      token: t.sim.as("rev"),
      repo: { owner: "acme", repo: "widgets" },
      ownLogins: [bot],
    });
    const expected = await reviewRoundScenario(
      real,
      (pr, review) => person.createReview(pr, review),
      mainSha,
    );
    const fake = createGitHubFake({ self: bot, permissions: { rev: "write" } });
    const faked = await reviewRoundScenario(
      fake,
      (pr, review) => Promise.resolve(fake.seedReview(pr, review, "rev")),
      fake.store.branches.get("main") ?? "",
    );
    expect(faked).toEqual(expected);
    expect(expected.threadsAfter?.[0]?.isResolved).toBe(true);
  });

  it("reads what failed in a CI run as the real gateway on the simulator does", async () => {
    const headSha = execFileSync("git", ["rev-parse", "main"], { cwd: seeded.gitDir }).toString().trim();
    const run = await t.sim.ci.run(seeded.repo, { headBranch: "main", jobs: JOBS });
    const expected = await ciScenario(real, run.id, headSha);
    const fake = createGitHubFake({ self: bot });
    const faked = await ciScenario(
      fake,
      fake.seedCiRun({ headBranch: "main", jobs: JOBS }).id,
      "0".repeat(40),
    );
    expect(faked).toEqual(expected);
    expect(expected.failed.map((check) => check.failedSteps)).toEqual([["node --test"]]);
  });
});

describe("the typed fake's commits made by GitHub", () => {
  it("makes, refuses and moves commits on a bare remote as the real gateway on the simulator does", async () => {
    const simMain = execFileSync("git", ["rev-parse", "main"], { cwd: seeded.gitDir }).toString().trim();
    const dir = await mkdtemp(join(tmpdir(), "locus-fake-commits-"));
    try {
      // The fake's remote: a copy of the simulator's repository as it is before the scenario.
      const remote = join(dir, "remote.git");
      execFileSync("git", ["clone", "--quiet", "--bare", seeded.gitDir, remote]);
      const expected = await branchCommitScenario(real, seeded.gitDir, simMain, (sha) =>
        Boolean(seeded.repo.verifiedCommits?.has(sha)),
      );
      const verifiedFile = join(dir, "verified");
      await writeFile(verifiedFile, "");
      const fake = committingToRemote(createGitHubFake({ self: bot }), remote, {
        author: t.sim.bot,
        verifiedFile,
      });
      const faked = await branchCommitScenario(fake, remote, simMain, (sha) => fake.verifiedCommits.has(sha));
      expect(faked).toEqual(expected);
      expect(expected.commit.verified).toBe(true);
      expect(expected.stale).toEqual({ ok: false, moved: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const LEFT_PAD = {
  ghsaId: "GHSA-aaaa-bbbb-cccc",
  ecosystem: "npm",
  name: "left-pad",
  versions: ["1.0.0"],
  severity: "high",
  summary: "Pads to the left of the left",
} as const;

const manifest = (dependencies: Record<string, string>) =>
  `${JSON.stringify({ name: "w", dependencies, devDependencies: { vitest: "^5.0.0" } }, null, 2)}\n`;

/** A branch whose package.json is `dependencies`, made through the real gateway on the simulator. */
async function branchWithManifest(branch: string, from: string, dependencies: Record<string, string>) {
  const sha = execFileSync("git", ["rev-parse", from], { cwd: seeded.gitDir }).toString().trim();
  await real.createBranch(branch, sha);
  const contents = Buffer.from(manifest(dependencies)).toString("base64");
  const additions = [{ path: "package.json", contents }];
  await real.createCommitOnBranch({
    branch,
    expectedHeadOid: sha,
    headline: "deps",
    body: "",
    deletions: [],
    additions,
  });
}

/** The review's answer in an order that does not depend on how each side lists it. */
async function reviewOf(gateway: GitHubGateway) {
  const review = await gateway.compareDependencies("deps-base", "deps-head");
  if (!review.available) return review;
  const key = (change: { change: string; name: string }) => `${change.change} ${change.name}`;
  return { ...review, changes: [...review.changes].sort((a, b) => key(a).localeCompare(key(b))) };
}

describe("the typed fake's dependency review", () => {
  it("answers what a branch adds and removes, and a private repository's refusal, as the simulator does", async () => {
    t.sim.store.advisories.push(LEFT_PAD);
    await branchWithManifest("deps-base", "main", { zod: "^3.0.0", chalk: "^5.0.0" });
    await branchWithManifest("deps-head", "deps-base", { zod: "^4.1.0", "left-pad": "1.0.0" });
    const settings: FakeDependencyReview = {
      isPrivate: false,
      advancedSecurity: false,
      advisories: [LEFT_PAD],
    };
    const fake = withDependencyReview(
      createGitHubFake({ self: bot, repo: { owner: "acme", repo: "widgets" } }),
      (ref) => {
        try {
          return Promise.resolve(
            execFileSync("git", ["show", `${ref}:package.json`], { cwd: seeded.gitDir }).toString(),
          );
        } catch {
          return Promise.resolve(null);
        }
      },
      settings,
    );

    const expected = await reviewOf(real);
    expect(await reviewOf(fake)).toEqual(expected);
    expect(expected.available && expected.changes.map((c) => `${c.change} ${c.name}@${c.version}`)).toEqual([
      "added left-pad@1.0.0",
      "added zod@4.1.0",
      "removed chalk@5.0.0",
      "removed zod@3.0.0",
    ]);
    // The installation's token may read the review (the bundle's checks before review asserted it on its run).
    expect(t.sim.store.permissionViolations).toEqual([]);

    seeded.repo.isPrivate = true;
    settings.isPrivate = true;
    // The real gateway adds the request and the permission advice to GitHub's message: the fake says GitHub's part.
    const refused = await reviewOf(real);
    const fakeRefused = await reviewOf(fake);
    expect(refused.available).toBe(false);
    expect(fakeRefused.available).toBe(false);
    const [, message] = (fakeRefused.available ? "" : fakeRefused.reason).split("GitHub answered 403: ");
    expect(message).toContain("GitHub Advanced Security on private repositories");
    expect(refused.available ? "" : refused.reason).toMatch(/^GitHub answered 403: /);
    expect(refused.available ? "" : refused.reason).toContain(message);
  });
});
