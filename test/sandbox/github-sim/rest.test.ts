import { RequestError } from "@octokit/request-error";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pushBranch, startTestSim } from "./harness.ts";
import type { Client, TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };

async function failure(promise: Promise<unknown>): Promise<RequestError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof RequestError)) throw new Error(`expected a RequestError, got ${String(error)}`);
  return error;
}

describe("REST behaviour Locus relies on", () => {
  let t: TestSim;
  let owner: Client;

  beforeEach(async () => {
    t = await startTestSim();
    const seeded = await t.sim.seed.repo("octocat/hello", { files: { "a.txt": "one\ntwo\nthree\n" } });
    seeded
      .collaborator("reader", "read")
      .collaborator("maint", "maintain")
      .label("p:high", { color: "b60205" });
    owner = t.client(t.sim.as("octocat"));
  });
  afterEach(() => t.close());

  it("sets labels in one call, creating unknown ones, and removes one by name", async () => {
    const issue = await owner.rest.issues.create({ ...repo, title: "Task" });
    const set = await owner.rest.issues.setLabels({
      ...repo,
      issue_number: issue.data.number,
      labels: ["p:high", "order:1"],
    });
    expect(set.data.map((label) => [label.name, label.color])).toEqual([
      ["p:high", "b60205"],
      ["order:1", "ededed"],
    ]);
    const remaining = await owner.rest.issues.removeLabel({
      ...repo,
      issue_number: issue.data.number,
      name: "order:1",
    });
    expect(remaining.data.map((label) => label.name)).toEqual(["p:high"]);
    const missing = await failure(
      owner.rest.issues.removeLabel({ ...repo, issue_number: issue.data.number, name: "order:1" }),
    );
    expect(missing.status).toBe(404);
    const duplicate = await failure(owner.rest.issues.createLabel({ ...repo, name: "P:HIGH" }));
    expect(duplicate.status).toBe(422);
    expect(duplicate.response?.data).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Label", code: "already_exists", field: "name" }],
    });
    const renamed = await owner.rest.issues.updateLabel({
      ...repo,
      name: "p:high",
      new_name: "p:critical",
      color: "ff0000",
    });
    expect(renamed.data).toMatchObject({ name: "p:critical", color: "ff0000" });
    await owner.rest.issues.deleteLabel({ ...repo, name: "p:critical" });
    const labels = await owner.rest.issues.listLabelsOnIssue({ ...repo, issue_number: issue.data.number });
    expect(labels.data).toEqual([]);
  });

  it("filters issues by milestone, labels, state and since, paginating with Link headers", async () => {
    const sprint = await owner.rest.issues.createMilestone({
      ...repo,
      title: "Sprint",
      description: "locus: active",
    });
    for (let index = 1; index <= 5; index += 1) {
      await owner.rest.issues.create({
        ...repo,
        title: `T${index}`,
        milestone: index <= 3 ? sprint.data.number : undefined,
        labels: index === 2 ? ["p:high"] : [],
      });
    }
    await owner.rest.issues.update({ ...repo, issue_number: 3, state: "closed" });
    const open = await owner.rest.issues.listForRepo({
      ...repo,
      milestone: String(sprint.data.number),
      direction: "asc",
    });
    expect(open.data.map((issue) => issue.number)).toEqual([1, 2]);
    const all = await owner.rest.issues.listForRepo({
      ...repo,
      milestone: String(sprint.data.number),
      state: "all",
      labels: "p:high",
    });
    expect(all.data.map((issue) => issue.number)).toEqual([2]);
    const page = await owner.rest.issues.listForRepo({ ...repo, state: "all", per_page: 2, page: 2 });
    expect(page.data.map((issue) => issue.number)).toEqual([3, 2]);
    expect(page.headers.link).toContain('rel="next"');
    expect(page.headers.link).toContain('rel="prev"');
    expect(page.headers.link).toMatch(
      /<http:\/\/127\.0\.0\.1:\d+\/api\/v3\/repos\/octocat\/hello\/issues\?state=all&per_page=2&page=3>; rel="next"/,
    );
    const milestone = await owner.rest.issues.getMilestone({ ...repo, milestone_number: sprint.data.number });
    expect(milestone.data).toMatchObject({ open_issues: 2, closed_issues: 1, description: "locus: active" });
    const future = await owner.rest.issues.listForRepo({ ...repo, since: "2999-01-01T00:00:00Z" });
    expect(future.data).toEqual([]);
  });

  it("threads comments, reactions and collaborator permissions", async () => {
    const issue = await owner.rest.issues.create({ ...repo, title: "Q" });
    const reader = t.client(t.sim.as("reader"));
    const comment = await reader.rest.issues.createComment({
      ...repo,
      issue_number: issue.data.number,
      body: "/locus run",
    });
    const reaction = await owner.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: comment.data.id,
      content: "eyes",
    });
    expect(reaction.status).toBe(201);
    const again = await owner.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: comment.data.id,
      content: "eyes",
    });
    expect(again.status).toBe(200);
    const fetched = await owner.rest.issues.getComment({ ...repo, comment_id: comment.data.id });
    expect(fetched.data.reactions?.eyes).toBe(1);
    await owner.rest.reactions.createForIssue({ ...repo, issue_number: issue.data.number, content: "+1" });
    const comments = await owner.rest.issues.listComments({
      ...repo,
      issue_number: issue.data.number,
      since: comment.data.created_at,
    });
    expect(comments.data.map((item) => item.body)).toEqual(["/locus run"]);
    const permissions = await Promise.all(
      ["octocat", "maint", "reader", "stranger"].map(async (login) => {
        t.sim.seed.user(login);
        const { data } = await owner.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login });
        return [login, data.permission, data.role_name];
      }),
    );
    expect(permissions).toEqual([
      ["octocat", "admin", "admin"],
      ["maint", "write", "maintain"],
      ["reader", "read", "read"],
      ["stranger", "read", "read"],
    ]);
    const denied = await failure(
      reader.rest.issues.addLabels({ ...repo, issue_number: issue.data.number, labels: ["p:high"] }),
    );
    expect(denied.status).toBe(403);
  });

  it("anchors review comments to the diff and refuses self-approval like GitHub", async () => {
    const { gitDir } = t.sim.store.repos.get("octocat/hello") ?? { gitDir: "" };
    await pushBranch(gitDir, t.tempDir, "feature", { "a.txt": "one\nTWO\nthree\n" });
    const bot = t.client(t.sim.as("maint"));
    const pr = await bot.rest.pulls.create({
      ...repo,
      head: "octocat:feature",
      base: "main",
      title: "Shout",
    });
    const byHead = await owner.rest.pulls.list({ ...repo, head: "octocat:feature", state: "open" });
    expect(byHead.data.map((pull) => pull.number)).toEqual([pr.data.number]);
    const outside = await failure(
      owner.rest.pulls.createReview({
        ...repo,
        pull_number: pr.data.number,
        event: "COMMENT",
        body: "x",
        comments: [{ path: "a.txt", line: 40, body: "far away" }],
      }),
    );
    expect(outside.status).toBe(422);
    expect(outside.response?.data).toMatchObject({
      message: "Unprocessable Entity",
      errors: ["Line could not be resolved"],
    });
    const self = await failure(
      bot.rest.pulls.createReview({ ...repo, pull_number: pr.data.number, event: "APPROVE" }),
    );
    expect(self.status).toBe(422);
    expect(self.response?.data).toMatchObject({ errors: ["Can not approve your own pull request"] });
    const own = await bot.rest.pulls.createReview({
      ...repo,
      pull_number: pr.data.number,
      event: "COMMENT",
      body: "notes",
      comments: [{ path: "a.txt", line: 2, side: "LEFT", body: "was lower case" }],
    });
    expect(own.data.state).toBe("COMMENTED");
    const commits = await owner.rest.pulls.listCommits({ ...repo, pull_number: pr.data.number });
    expect(commits.data).toHaveLength(1);
    const content = await owner.rest.repos.getContent({ ...repo, path: "a.txt", ref: "feature" });
    expect(Buffer.from((content.data as { content: string }).content, "base64").toString()).toBe(
      "one\nTWO\nthree\n",
    );
    const duplicate = await failure(
      bot.rest.pulls.create({ ...repo, head: "feature", base: "main", title: "Again" }),
    );
    expect(duplicate.status).toBe(422);
    await owner.rest.git.deleteRef({ ...repo, ref: "heads/feature" });
    const gone = await failure(owner.rest.repos.getBranch({ ...repo, branch: "feature" }));
    expect(gone.status).toBe(404);
  });

  it("serves a fork's pull request with the fork as its head repository", async () => {
    const { gitDir } = t.sim.store.repos.get("octocat/hello") ?? { gitDir: "" };
    await pushBranch(gitDir, t.tempDir, "patch", { "a.txt": "one\nTWO\nthree\n" });
    const pr = await owner.rest.pulls.create({ ...repo, head: "patch", base: "main", title: "From a fork" });
    await t.sim.seed.repo("mallory/hello", { install: false });
    const pull = t.sim.store.repos.get("octocat/hello")?.issues.get(pr.data.number)?.pull;
    if (!pull) throw new Error("no pull request");
    pull.headRepository = "mallory/hello";

    const fromFork = await owner.rest.pulls.get({ ...repo, pull_number: pr.data.number });
    expect(fromFork.data.head).toMatchObject({
      label: "mallory:patch",
      ref: "patch",
      repo: { full_name: "mallory/hello", fork: true },
    });
    expect(fromFork.data.base.repo.full_name).toBe("octocat/hello");
  });

  it("sends milestone and issue webhooks with the acting user as sender, and none while seeding", async () => {
    const seeded = t.sim.store.repos.get("octocat/hello");
    expect(t.sim.webhooks.deliveries).toHaveLength(0);
    const human = t.client(t.sim.as("maint"));
    const sprint = await human.rest.issues.createMilestone({ ...repo, title: "S" });
    await human.rest.issues.updateMilestone({
      ...repo,
      milestone_number: sprint.data.number,
      description: "locus: active",
    });
    const issue = await human.rest.issues.create({ ...repo, title: "T", milestone: sprint.data.number });
    await human.rest.issues.update({
      ...repo,
      issue_number: issue.data.number,
      milestone: null,
      state: "closed",
    });
    await t.sim.webhooks.drain();
    const events = t.sim.webhooks.deliveries.map((delivery) => `${delivery.event}.${delivery.action ?? ""}`);
    expect(events).toEqual([
      "milestone.created",
      "milestone.edited",
      "issues.opened",
      "issues.milestoned",
      "issues.demilestoned",
      "issues.closed",
    ]);
    expect(t.sim.webhooks.deliveries[1]?.payload).toMatchObject({
      changes: { description: { from: null } },
      sender: { login: "maint" },
    });
    expect(seeded?.issues.get(issue.data.number)?.state).toBe("closed");
  });

  it("answers a file raw for Octokit's versioned media type as for the unversioned one", async () => {
    for (const accept of ["application/vnd.github.v3.raw", "application/vnd.github.raw+json"]) {
      const response = await owner.request("GET /repos/{owner}/{repo}/contents/{path}", {
        ...repo,
        path: "a.txt",
        headers: { accept },
      });
      expect(response.data).toBe("one\ntwo\nthree\n");
    }
    const json = await owner.rest.repos.getContent({ ...repo, path: "a.txt" });
    expect(json.data).toMatchObject({ type: "file", encoding: "base64" });
  });
});
