import nock from "nock";
import { describe, expect, it } from "vitest";
import { API, R, issue, milestone, pull, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

const RUN = {
  id: 77,
  name: "Locus",
  display_title: "Locus issue #5 (d-1)",
  status: "in_progress",
  conclusion: null,
  event: "workflow_dispatch",
  head_branch: "main",
  html_url: "https://github.com/acme/widgets/actions/runs/77",
  created_at: "2026-01-01T00:00:00Z",
};

const REVIEW = {
  id: 31,
  state: "CHANGES_REQUESTED",
  body: "Please rename",
  user: { login: "bob" },
  author_association: "MEMBER",
  submitted_at: "2026-01-02T00:00:00Z",
  commit_id: "abc123",
};

describe("issues", () => {
  it("creates and updates issues with exactly the fields given", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/issues`, {
        title: "Sprint: S1",
        body: "dashboard",
        labels: ["agent:managed"],
        milestone: 2,
      })
      .reply(
        201,
        issue(40, { title: "Sprint: S1", labels: [{ name: "agent:managed" }], milestone: { number: 2 } }),
      )
      .patch(`${R}/issues/40`, { body: "new dashboard" })
      .reply(200, issue(40, { body: "new dashboard" }));

    const created = await gateway.createIssue({
      title: "Sprint: S1",
      body: "dashboard",
      labels: ["agent:managed"],
      milestone: 2,
    });
    const updated = await gateway.updateIssue(40, { body: "new dashboard" });

    expect(created).toMatchObject({ number: 40, milestone: 2, labels: ["agent:managed"] });
    expect(updated.body).toBe("new dashboard");
  });

  it("lists issues by label and drops pull requests", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues`)
      .query({ state: "open", labels: "locus:in-progress,agent:managed", per_page: 100, page: 1 })
      .reply(200, [issue(1), issue(2, { pull_request: { url: "x" } })]);

    const issues = await gateway.listIssues({ labels: ["locus:in-progress", "agent:managed"] });

    expect(issues.map((i) => i.number)).toEqual([1]);
  });
});

describe("milestones", () => {
  it("lists, gets, creates and updates", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/milestones`)
      .query({ state: "all", per_page: 100, page: 1 })
      .reply(200, [milestone(1), milestone(2, { state: "closed", description: null })])
      .get(`${R}/milestones/1`)
      .reply(200, milestone(1))
      .get(`${R}/milestones/9`)
      .reply(404, { message: "Not Found" })
      .post(`${R}/milestones`, { title: "S2", description: "goal", due_on: "2026-02-01T00:00:00Z" })
      .reply(201, milestone(3, { title: "S2" }))
      .patch(`${R}/milestones/3`, { state: "closed" })
      .reply(200, milestone(3, { state: "closed" }));

    const all = await gateway.listMilestones({ state: "all" });
    const one = await gateway.getMilestone(1);
    const missing = await gateway.getMilestone(9);
    const created = await gateway.createMilestone({
      title: "S2",
      description: "goal",
      dueOn: "2026-02-01T00:00:00Z",
    });
    const closed = await gateway.updateMilestone(3, { state: "closed" });

    expect(all.map((m) => [m.number, m.state, m.description])).toEqual([
      [1, "open", "locus: active"],
      [2, "closed", ""],
    ]);
    expect(one).toMatchObject({ number: 1, title: "Sprint 1", openIssues: 2, closedIssues: 1 });
    expect(missing).toBeNull();
    expect(created.title).toBe("S2");
    expect(closed.state).toBe("closed");
  });
});

describe("pull requests", () => {
  it("creates, finds by owner-qualified head, updates and reads", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/pulls`, {
        title: "feat: greet (#1)",
        body: "Closes #1",
        head: "locus/issue-1",
        base: "main",
        draft: false,
      })
      .reply(201, pull(12))
      .get(`${R}/pulls`)
      .query({ head: "acme:locus/issue-1", state: "open", per_page: 1 })
      .reply(200, [pull(12)])
      .get(`${R}/pulls`)
      .query({ head: "acme:locus/issue-2", state: "all", per_page: 1 })
      .reply(200, [])
      .patch(`${R}/pulls/12`, { base: "locus/issue-0" })
      .reply(200, pull(12, { base: { ref: "locus/issue-0" } }))
      .get(`${R}/pulls/12`)
      .reply(200, pull(12, { state: "closed", merged_at: "2026-01-03T00:00:00Z" }))
      .get(`${R}/pulls/13`)
      .reply(404, { message: "Not Found" });

    const created = await gateway.createPullRequest({
      title: "feat: greet (#1)",
      body: "Closes #1",
      head: "locus/issue-1",
      base: "main",
      draft: false,
    });
    const found = await gateway.findPullRequestByHead("locus/issue-1");
    const none = await gateway.findPullRequestByHead("locus/issue-2", { state: "all" });
    const retargeted = await gateway.updatePullRequest(12, { base: "locus/issue-0" });
    const merged = await gateway.getPullRequest(12);
    const missing = await gateway.getPullRequest(13);

    expect(created).toEqual({
      number: 12,
      title: "PR 12",
      body: "Closes #1",
      state: "open",
      merged: false,
      draft: false,
      head: { ref: "locus/issue-1", sha: "abc123" },
      base: { ref: "main" },
      author: "locus[bot]",
      url: "https://github.com/acme/widgets/pull/12",
      fromFork: false,
    });
    expect(found?.number).toBe(12);
    expect(none).toBeNull();
    expect(retargeted.base.ref).toBe("locus/issue-0");
    expect(merged).toMatchObject({ state: "closed", merged: true });
    expect(missing).toBeNull();
  });

  it("reads review comments since a time and reviews", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/pulls/12/comments`)
      .query({ since: "2026-01-02T00:00:00Z", per_page: 100, page: 1 })
      .reply(200, [
        {
          id: 90,
          body: "rename this",
          path: "src/greet.js",
          line: 2,
          side: "RIGHT",
          diff_hunk: "@@ -1,2 +1,2 @@",
          user: { login: "bob" },
          author_association: "MEMBER",
          created_at: "2026-01-02T01:00:00Z",
          updated_at: "2026-01-02T01:00:00Z",
          pull_request_review_id: 31,
        },
        {
          id: 91,
          body: "outdated",
          path: "src/greet.js",
          line: null,
          diff_hunk: "@@",
          user: { login: "bob" },
          author_association: "MEMBER",
          created_at: "2026-01-02T02:00:00Z",
          updated_at: "2026-01-02T02:00:00Z",
          in_reply_to_id: 90,
          pull_request_review_id: null,
        },
      ])
      .get(`${R}/pulls/12/reviews`)
      .query({ per_page: 100, page: 1 })
      .reply(200, [REVIEW, { ...REVIEW, id: 32, state: "PENDING", body: null, submitted_at: undefined }]);

    const comments = await gateway.listReviewComments(12, { since: "2026-01-02T00:00:00Z" });
    const reviews = await gateway.listReviews(12);

    expect(comments[0]).toMatchObject({
      path: "src/greet.js",
      line: 2,
      side: "RIGHT",
      reviewId: 31,
      inReplyToId: null,
    });
    expect(comments[1]).toMatchObject({ line: null, side: null, inReplyToId: 90 });
    expect(reviews).toEqual([
      {
        id: 31,
        state: "CHANGES_REQUESTED",
        body: "Please rename",
        author: "bob",
        authorAssociation: "MEMBER",
        submittedAt: "2026-01-02T00:00:00Z",
        commitId: "abc123",
      },
      expect.objectContaining({ id: 32, state: "PENDING", body: "", submittedAt: null }),
    ]);
  });

  it("creates a review with line comments, right side by default", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/pulls/12/reviews`, {
        event: "COMMENT",
        body: "Two findings",
        comments: [
          { path: "a.ts", line: 3, side: "RIGHT", body: "null check" },
          { path: "b.ts", line: 9, side: "LEFT", body: "removed too much" },
        ],
      })
      .reply(200, { ...REVIEW, state: "COMMENTED" });

    const review = await gateway.createReview(12, {
      event: "COMMENT",
      body: "Two findings",
      comments: [
        { path: "a.ts", line: 3, body: "null check" },
        { path: "b.ts", line: 9, side: "LEFT", body: "removed too much" },
      ],
    });

    expect(review.state).toBe("COMMENTED");
  });
});

describe("actions", () => {
  it("dispatches a workflow with string inputs, asking for the run it starts", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/actions/workflows/locus.yml/dispatches`, {
        ref: "main",
        inputs: { mode: "issue", issue: "5", delivery: "d-1" },
        return_run_details: true,
      })
      .reply(200, {
        workflow_run_id: 77,
        run_url: `${API}${R}/actions/runs/77`,
        html_url: "https://github.com/acme/widgets/actions/runs/77",
      });

    const run = await gateway.dispatchWorkflow("locus.yml", "main", {
      mode: "issue",
      issue: "5",
      delivery: "d-1",
    });

    expect(run).toEqual({ id: 77, url: "https://github.com/acme/widgets/actions/runs/77" });
    expect(gateway.counter.snapshot().byRoute).toEqual({
      "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches": 1,
    });
  });

  it("lists runs filtered by status and branch", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/actions/workflows/locus.yml/runs`)
      .query({ status: "in_progress", branch: "main", per_page: 100 })
      .reply(200, { total_count: 1, workflow_runs: [RUN] });

    const runs = await gateway.listWorkflowRuns("locus.yml", { status: "in_progress", branch: "main" });

    expect(runs).toEqual([
      {
        id: 77,
        name: "Locus",
        displayTitle: "Locus issue #5 (d-1)",
        status: "in_progress",
        conclusion: null,
        event: "workflow_dispatch",
        headBranch: "main",
        url: "https://github.com/acme/widgets/actions/runs/77",
        createdAt: "2026-01-01T00:00:00Z",
      },
    ]);
  });

  it("cancels a run, and reports a run that had already finished", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/actions/runs/77/cancel`)
      .reply(202, {})
      .post(`${R}/actions/runs/78/cancel`)
      .reply(409, { message: "Cannot cancel a workflow run that is completed." });

    expect(await gateway.cancelWorkflowRun(77)).toBe("cancelled");
    expect(await gateway.cancelWorkflowRun(78)).toBe("already-finished");
  });
});

describe("repository", () => {
  it("reads a file raw at a ref, null when it is missing, and refuses a directory", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/contents/.github%2Flocus.yml`)
      .query({ ref: "main" })
      .matchHeader("accept", "application/vnd.github.v3.raw")
      .reply(200, "version: 1\n", { "content-type": "application/vnd.github.raw; charset=utf-8" })
      .get(`${R}/contents/AGENTS.md`)
      .reply(200, Buffer.from("# Agents\n"), { "content-type": "application/octet-stream" })
      .get(`${R}/contents/.locus%2FLOCUS.md`)
      .reply(404, { message: "Not Found" })
      .get(`${R}/contents/src`)
      .reply(200, [{ name: "a.ts", type: "file" }]);

    expect(await gateway.getFileContent(".github/locus.yml", "main")).toBe("version: 1\n");
    expect(await gateway.getFileContent("AGENTS.md")).toBe("# Agents\n");
    expect(await gateway.getFileContent(".locus/LOCUS.md")).toBeNull();
    await expect(gateway.getFileContent("src")).rejects.toThrow(/src is a directory/);
  });

  it("maps collaborator permission to the five roles, none when unknown", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/collaborators/ann/permission`)
      .reply(200, { permission: "write", role_name: "maintain" })
      .get(`${R}/collaborators/cat/permission`)
      .reply(200, { permission: "read", role_name: "security-auditor" })
      .get(`${R}/collaborators/dan/permission`)
      .reply(200, { permission: "admin" })
      .get(`${R}/collaborators/ghost-user/permission`)
      .reply(404, { message: "Not Found" });

    expect(await gateway.getCollaboratorPermission("ann")).toBe("maintain");
    expect(await gateway.getCollaboratorPermission("cat")).toBe("read");
    expect(await gateway.getCollaboratorPermission("dan")).toBe("admin");
    expect(await gateway.getCollaboratorPermission("ghost-user")).toBe("none");
  });
});
