/**
 * Write retries (docs/reliability.md): GitHub applies a create —
 * a comment, a PR, a label, a workflow dispatch, iterate's reply mutation —
 * and then answers 502 or drops the connection. The gateway must find what
 * it created instead of creating it twice, create it once when it had not
 * been, and spend no more attempts than the retry policy allows. Against the
 * simulator over HTTP, whose faults carry the request out before failing it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import type { FaultRule } from "../../../sandbox/github-sim/index.ts";
import type { Repo } from "../../../sandbox/github-sim/model.ts";
import { nodeId } from "../../../sandbox/github-sim/serialize-user.ts";
import { createActionOctokit, createGateway, type GitHubGateway } from "../../../lib/github/index.ts";
import { pushBranch, startTestSim, type TestSim } from "../../sandbox/github-sim/harness.ts";
import { recordingLog, type RecordingLog } from "./helpers.ts";
import { callerWorkflowFiles } from "../../../sandbox/world/caller-workflow.ts";

const RETRIES = 3;

let t: TestSim;
let repo: Repo;
let gitDir: string;
let locus: GitHubGateway;
let log: RecordingLog;

beforeEach(async () => {
  t = await startTestSim({ runName: ({ inputs }) => `Locus ${inputs["mode"]} (${inputs["delivery"]})` });
  const seeded = await t.sim.seed.repo("acme/widgets", {
    files: { "a.txt": "one\ntwo\n", ...callerWorkflowFiles() },
  });
  seeded.collaborator("rev", "write");
  repo = seeded.repo;
  gitDir = seeded.gitDir;
  log = recordingLog();
  const token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  locus = createGateway({
    ownLogins: [t.sim.app.botLogin],
    octokit: createActionOctokit({
      token,
      baseUrl: t.sim.apiUrl,
      log,
      maxRetries: RETRIES,
      retryUnitMs: 0,
      minWriteIntervalMs: 0,
    }),
    repo: { owner: "acme", repo: "widgets" },
    log,
  });
});
afterEach(() => t.close());

/** The requests `work` made, as `METHOD path status` (GraphQL by operation name), and its outcome. */
async function traffic<T>(work: () => Promise<T>): Promise<{ sent: string[]; result: T }> {
  const start = t.sim.requestLog.length;
  const result = await work();
  const sent = t.sim.requestLog
    .slice(start)
    .map((e) => `${e.method} ${e.operationName ?? e.path} ${e.status}`);
  return { sent, result };
}

/** Fails the route's next request: after GitHub carried it out, or (applied: false) before. */
function fail(
  rule: Pick<FaultRule, "method" | "path" | "operationName">,
  how: "502" | "drop",
  applied = true,
) {
  const action = how === "drop" ? { kind: "drop" as const } : { kind: "status" as const, status: 502 };
  return t.sim.faults.add({ ...rule, ...action, afterApply: applied, times: 1 });
}

const COMMENTS = { method: "POST", path: "/repos/{owner}/{repo}/issues/{number}/comments" };
const PULLS = { method: "POST", path: "/repos/{owner}/{repo}/pulls" };
const LABELS = { method: "POST", path: "/repos/{owner}/{repo}/labels" };
const DISPATCHES = { method: "POST", path: "/repos/{owner}/{repo}/actions/workflows/{id}/dispatches" };
const ANSWER = { path: /\/graphql$/, operationName: "AnswerReviewFeedback" };

const commentsOn = (issue: number) => repo.comments.filter((c) => c.issueNumber === issue);

describe("a comment", () => {
  it.each(["502", "drop"] as const)(
    "GitHub stored before failing (%s) is found and returned, not posted again",
    async (how) => {
      const issue = await locus.createIssue({ title: "Greet" });
      fail(COMMENTS, how);

      const { sent, result } = await traffic(() => locus.createComment(issue.number, "Working on it."));

      expect(commentsOn(issue.number).map((c) => c.body)).toEqual(["Working on it."]);
      expect(sent).toEqual([
        `POST /repos/acme/widgets/issues/${issue.number}/comments ${how === "drop" ? 0 : 502}`,
        "POST CommentLanded 200",
      ]);
      // The comment as a plain read gives it: the caller cannot tell the two paths apart.
      expect(result).toEqual((await locus.listIssueComments(issue.number))[0]);
      expect(result.author).toBe(t.sim.app.botLogin);
    },
  );

  it("keyed by a hidden marker is found by the marker, so a sticky comment stays one", async () => {
    const issue = await locus.createIssue({ title: "Greet" });
    fail(COMMENTS, "502");

    const upserted = await locus.upsertComment(issue.number, "locus:status", "Queued.");

    expect(upserted.action).toBe("created");
    expect(commentsOn(issue.number).map((c) => c.body)).toEqual(["<!-- locus:status -->\nQueued."]);
  });

  it("GitHub did not store is looked for, then posted once more", async () => {
    const issue = await locus.createIssue({ title: "Greet" });
    // Someone else's identical comment is not ours.
    await createAs("rev", issue.number, "Working on it.");
    fail(COMMENTS, "502", false);

    const { sent, result } = await traffic(() => locus.createComment(issue.number, "Working on it."));

    expect(sent).toEqual([
      `POST /repos/acme/widgets/issues/${issue.number}/comments 502`,
      "POST CommentLanded 200",
      `POST /repos/acme/widgets/issues/${issue.number}/comments 201`,
    ]);
    expect(commentsOn(issue.number).map((c) => [c.author, c.body])).toEqual([
      ["rev", "Working on it."],
      [t.sim.app.botLogin, "Working on it."],
    ]);
    expect(result.author).toBe(t.sim.app.botLogin);
  });
});

async function createAs(login: string, issue: number, body: string): Promise<void> {
  const response = await fetch(`${t.sim.apiUrl}/repos/acme/widgets/issues/${issue}/comments`, {
    method: "POST",
    headers: { authorization: `token ${t.sim.as(login)}`, "content-type": "application/json" },
    body: JSON.stringify({ body }),
  });
  expect(response.status).toBe(201);
}

describe("a pull request", () => {
  const pr = { title: "Greet", body: "Closes #1", head: "locus/issue-1", base: "main" };
  beforeEach(async () => {
    await pushBranch(gitDir, t.tempDir, "locus/issue-1", { "a.txt": "one\nTWO\n" });
  });
  const pulls = () => [...repo.issues.values()].filter((issue) => issue.pull);

  it.each(["502", "drop"] as const)(
    "GitHub opened before failing (%s) is found by its head branch",
    async (how) => {
      fail(PULLS, how);

      const { sent, result } = await traffic(() => locus.createPullRequest(pr));

      expect(pulls().map((p) => p.number)).toEqual([result.number]);
      expect(result).toMatchObject({ head: { ref: "locus/issue-1" }, base: { ref: "main" }, state: "open" });
      expect(sent).toEqual([
        `POST /repos/acme/widgets/pulls ${how === "drop" ? 0 : 502}`,
        "GET /repos/acme/widgets/pulls 200",
      ]);
    },
  );

  it("GitHub did not open is opened once on the retry", async () => {
    fail(PULLS, "502", false);

    const { sent } = await traffic(() => locus.createPullRequest(pr));

    expect(sent).toEqual([
      "POST /repos/acme/widgets/pulls 502",
      "GET /repos/acme/widgets/pulls 200",
      "POST /repos/acme/widgets/pulls 201",
    ]);
    expect(pulls()).toHaveLength(1);
  });
});

describe("a label", () => {
  const def = { name: "locus:queued", color: "fbca04" };
  const named = () => repo.labels.filter((label) => label.name === def.name);

  it.each(["502", "drop"] as const)("GitHub created before failing (%s) is found by name", async (how) => {
    fail(LABELS, how);

    const { sent, result } = await traffic(() => locus.createLabel(def));

    expect(result).toBe("created");
    expect(named()).toHaveLength(1);
    expect(sent).toEqual([
      `POST /repos/acme/widgets/labels ${how === "drop" ? 0 : 502}`,
      "GET /repos/acme/widgets/labels/locus%3Aqueued 200",
    ]);
  });

  it("GitHub did not create is created once on the retry", async () => {
    fail(LABELS, "502", false);

    const { sent, result } = await traffic(() => locus.createLabel(def));

    expect(result).toBe("created");
    expect(named()).toHaveLength(1);
    expect(sent).toEqual([
      "POST /repos/acme/widgets/labels 502",
      "GET /repos/acme/widgets/labels/locus%3Aqueued 404",
      "POST /repos/acme/widgets/labels 201",
    ]);
  });
});

describe("a workflow dispatch", () => {
  const inputs = { mode: "issue", issue: "1", delivery: "d-42" };
  const runsOf = (delivery: string) => repo.runs.filter((run) => run.inputs["delivery"] === delivery);

  it.each(["502", "drop"] as const)(
    "GitHub queued before failing (%s) is found by the delivery id in the run's name",
    async (how) => {
      fail(DISPATCHES, how);

      const { sent, result } = await traffic(() => locus.dispatchWorkflow("locus.yml", "main", inputs));

      const runs = runsOf("d-42");
      expect(runs).toHaveLength(1);
      expect(result).toEqual({
        id: runs[0]?.id,
        url: `${t.sim.url}/acme/widgets/actions/runs/${runs[0]?.id}`,
      });
      expect(sent).toEqual([
        `POST /repos/acme/widgets/actions/workflows/locus.yml/dispatches ${how === "drop" ? 0 : 502}`,
        "GET /repos/acme/widgets/actions/workflows/locus.yml/runs 200",
      ]);
    },
  );

  it("GitHub did not queue is dispatched once on the retry, and another delivery's run does not count", async () => {
    await locus.dispatchWorkflow("locus.yml", "main", { ...inputs, delivery: "d-4" });
    fail(DISPATCHES, "502", false);

    const { sent } = await traffic(() => locus.dispatchWorkflow("locus.yml", "main", inputs));

    expect(sent).toEqual([
      "POST /repos/acme/widgets/actions/workflows/locus.yml/dispatches 502",
      "GET /repos/acme/widgets/actions/workflows/locus.yml/runs 200",
      "POST /repos/acme/widgets/actions/workflows/locus.yml/dispatches 200",
    ]);
    expect(runsOf("d-42")).toHaveLength(1);
  });
});

describe("iterate's answer mutation", () => {
  let pull: number;
  let thread: string;
  let subject: string;

  beforeEach(async () => {
    await pushBranch(gitDir, t.tempDir, "locus/issue-1", { "a.txt": "one\nTWO\n" });
    pull = (await locus.createPullRequest({ title: "Greet", body: "", head: "locus/issue-1", base: "main" }))
      .number;
    await createReviewAs("rev", pull, "Lower case, please.");
    const root = repo.reviewComments.find((c) => c.pullNumber === pull && c.inReplyTo === null);
    thread = nodeId("PRRT", root?.id ?? 0);
    subject = nodeId("PR", repo.issues.get(pull)?.id ?? 0);
  });

  const replies = () => repo.reviewComments.filter((c) => c.pullNumber === pull && c.inReplyTo !== null);
  const answer = () =>
    locus.answerReviewFeedback([{ threadId: thread, body: "Done.", resolve: true }], {
      subjectId: subject,
      body: "All addressed.",
    });

  it.each(["502", "drop"] as const)(
    "GitHub ran before failing (%s) is found in the thread and the PR, and not sent again",
    async (how) => {
      fail(ANSWER, how);

      const { sent } = await traffic(answer);

      expect(sent).toEqual([
        `POST AnswerReviewFeedback ${how === "drop" ? 0 : 502}`,
        "POST AnswerReviewFeedbackLanded 200",
      ]);
      expect(replies().map((c) => c.body)).toEqual(["Done."]);
      expect(repo.reviewComments.find((c) => c.inReplyTo === null)?.resolved).toBe(true);
      expect(commentsOn(pull).map((c) => c.body)).toEqual(["All addressed."]);
    },
  );

  it("GitHub did not run is sent once more", async () => {
    fail(ANSWER, "502", false);

    const { sent } = await traffic(answer);

    expect(sent).toEqual([
      "POST AnswerReviewFeedback 502",
      "POST AnswerReviewFeedbackLanded 200",
      "POST AnswerReviewFeedback 200",
    ]);
    expect(replies().map((c) => c.body)).toEqual(["Done."]);
    expect(commentsOn(pull).map((c) => c.body)).toEqual(["All addressed."]);
  });

  it("GitHub ran in part is finished: only the missing resolve and comment are sent again", async () => {
    // As if the failed request had got as far as the reply: it is there, unresolved, with no comment.
    await locus.answerReviewFeedback([{ threadId: thread, body: "Done.", resolve: false }], {
      subjectId: subject,
      body: "Earlier round.",
    });
    fail(ANSWER, "502", false);

    const { sent } = await traffic(answer);

    expect(sent).toEqual([
      "POST AnswerReviewFeedback 502",
      "POST AnswerReviewFeedbackLanded 200",
      "POST AnswerReviewFeedback 200",
    ]);
    expect(replies().map((c) => c.body)).toEqual(["Done."]);
    expect(repo.reviewComments.find((c) => c.inReplyTo === null)?.resolved).toBe(true);
    expect(commentsOn(pull).map((c) => c.body)).toEqual(["Earlier round.", "All addressed."]);
  });
});

async function createReviewAs(login: string, pr: number, body: string): Promise<void> {
  const response = await fetch(`${t.sim.apiUrl}/repos/acme/widgets/pulls/${pr}/reviews`, {
    method: "POST",
    headers: { authorization: `token ${t.sim.as(login)}`, "content-type": "application/json" },
    body: JSON.stringify({ event: "COMMENT", body: "", comments: [{ path: "a.txt", line: 2, body }] }),
  });
  expect(response.status).toBe(200);
}

describe("an issue, a milestone and a review (plan approval, sprint tracking, review mode)", () => {
  it.each(["502", "drop"] as const)(
    "GitHub created before failing (%s) is found, not made twice",
    async (how) => {
      const body = "<!-- locus:planned comment=7 task=1 -->\nDo it.";
      fail({ method: "POST", path: "/repos/{owner}/{repo}/issues" }, how);
      fail({ method: "POST", path: "/repos/{owner}/{repo}/milestones" }, how);

      const milestone = await locus.createMilestone({ title: "Sprint 1" });
      const issue = await locus.createIssue({ title: "Task 1", body, milestone: milestone.number });

      expect(repo.milestones.map((m) => m.number)).toEqual([milestone.number]);
      expect([...repo.issues.values()].map((i) => [i.number, i.title])).toEqual([[issue.number, "Task 1"]]);
      expect(issue).toMatchObject({ body, milestone: milestone.number });
    },
  );

  it("a review GitHub submitted before failing is found by verdict and text", async () => {
    await pushBranch(gitDir, t.tempDir, "locus/issue-1", { "a.txt": "one\nTWO\n" });
    const pr = await locus.createPullRequest({
      title: "Greet",
      body: "",
      head: "locus/issue-1",
      base: "main",
    });
    const review = {
      event: "COMMENT" as const,
      body: "Two nits.",
      comments: [{ path: "a.txt", line: 2, body: "Case." }],
    };
    fail({ method: "POST", path: "/repos/{owner}/{repo}/pulls/{number}/reviews" }, "502");

    const { sent, result } = await traffic(() => locus.createReview(pr.number, review));

    expect(repo.reviews.filter((r) => r.pullNumber === pr.number).map((r) => r.id)).toEqual([result.id]);
    expect(repo.reviewComments.map((c) => c.body)).toEqual(["Case."]);
    expect(sent).toEqual([
      `POST /repos/acme/widgets/pulls/${pr.number}/reviews 502`,
      `GET /repos/acme/widgets/pulls/${pr.number}/reviews 200`,
    ]);
  });

  it("an issue GitHub did not create is looked for, then created once, a different one made meanwhile aside", async () => {
    await locus.createIssue({ title: "Task 1", body: "Something else." });
    fail({ method: "POST", path: "/repos/{owner}/{repo}/issues" }, "502", false);

    const { sent, result } = await traffic(() => locus.createIssue({ title: "Task 1", body: "Do it." }));

    expect(sent).toEqual([
      "POST /repos/acme/widgets/issues 502",
      "GET /repos/acme/widgets/issues 200",
      "POST /repos/acme/widgets/issues 201",
    ]);
    expect([...repo.issues.values()].map((i) => [i.title, i.body])).toEqual([
      ["Task 1", "Something else."],
      ["Task 1", "Do it."],
    ]);
    expect(result.body).toBe("Do it.");
  });
});

describe("the retry budget", () => {
  it("a create GitHub keeps failing is sent 1 + maxRetries times, looked for before each re-send, then fails", async () => {
    const issue = await locus.createIssue({ title: "Greet" });
    t.sim.faults.add({ ...COMMENTS, kind: "status", status: 502, times: RETRIES + 5 });

    const start = t.sim.requestLog.length;
    await expect(locus.createComment(issue.number, "Working on it.")).rejects.toMatchObject({ status: 502 });

    const post = `POST /repos/acme/widgets/issues/${issue.number}/comments 502`;
    const look = "POST CommentLanded 200";
    expect(
      t.sim.requestLog.slice(start).map((e) => `${e.method} ${e.operationName ?? e.path} ${e.status}`),
    ).toEqual([post, look, post, look, post, look, post]);
    expect(commentsOn(issue.number)).toEqual([]);
    expect(log.lines.filter((line) => line.startsWith("warn:"))).toHaveLength(RETRIES);
  });

  it("a 4xx on a create is final: no look, no re-send", async () => {
    const issue = await locus.createIssue({ title: "Greet" });
    t.sim.faults.add({ ...COMMENTS, kind: "status", status: 422, times: 1 });

    const { sent } = await traffic(() =>
      locus.createComment(issue.number, "Working on it.").catch((error: unknown) => error),
    );

    expect(sent).toEqual([`POST /repos/acme/widgets/issues/${issue.number}/comments 422`]);
  });

  it("reads keep the plain retry, with no look", async () => {
    t.sim.faults.add({ method: "GET", path: "/repos/{owner}/{repo}", kind: "status", status: 502, times: 1 });

    const { sent, result } = await traffic(() => locus.getDefaultBranch());

    expect(result).toBe("main");
    expect(sent).toEqual(["GET /repos/acme/widgets 502", "GET /repos/acme/widgets 200"]);
  });
});
