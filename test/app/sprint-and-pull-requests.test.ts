import { execFileSync } from "node:child_process";
import { renderTrackingDashboard } from "../../lib/render/tracking-dashboard.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comment, commentsOf, labelsOf, newIssue, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

async function milestone(title: string, description = ""): Promise<number> {
  const { data } = await h.as("alice").rest.issues.createMilestone({ owner, repo, title, description });
  await h.settle();
  return data.number;
}

/** Locus's labels, as the app creates them on installation: GraphQL sets labels by id. */
async function createLocusLabels(): Promise<void> {
  for (const name of ["locus:queued", "agent:managed"])
    await h
      .as("alice")
      .rest.issues.createLabel({ owner, repo, name, color: "0e8a16" })
      .catch((error: { status?: number }) => {
        if (error.status !== 422) throw error;
      });
}

/** A branch `locus/issue-<N>` with one commit, as the Action would push it, and its PR. */
async function locusPullRequest(issue: number, base = "main"): Promise<number> {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", h.repo.gitDir, ...args], { encoding: "utf8" }).trim();
  const tree = git("rev-parse", "main^{tree}");
  const commit = git("commit-tree", tree, "-p", base, "-m", `feat: work (#${issue})`);
  git("update-ref", `refs/heads/locus/issue-${issue}`, commit);
  // Opened by Locus's own identity: the app acts only on the PRs Locus opened.
  const { data } = await h.as(h.sim.app.botLogin).rest.pulls.create({
    owner,
    repo,
    title: `feat: work (#${issue})`,
    head: `locus/issue-${issue}`,
    base,
    body: `Closes #${issue}`,
  });
  await h.settle();
  return data.number;
}

describe("sprints", () => {
  it("gives issues added to a milestone order:max+1, keeping an existing order", async () => {
    const m = await milestone("Ordering");
    const first = await newIssue(h, "first", { milestone: m });
    const pinned = await newIssue(h, "pinned", { milestone: m, labels: ["order:7"] });
    const second = await newIssue(h, "second", { milestone: m });
    expect(await labelsOf(h, first)).toEqual(["order:1"]);
    expect(await labelsOf(h, pinned)).toEqual(["order:7"]);
    expect(await labelsOf(h, second)).toEqual(["order:8"]);
  });

  it("runs the sprint when an issue in a milestone is queued", async () => {
    const m = await milestone("Queued sprint");
    const issue = await newIssue(h, "task", { milestone: m });
    await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
    await h.settle();
    const sprintRuns = runs(h).filter((run) => run.inputs.milestone === String(m));
    expect(sprintRuns.map((run) => run.inputs.mode)).toEqual(["sprint"]);
  });

  it("activating a milestone queues its unfinished issues and dispatches the sprint once", async () => {
    const m = await milestone("Active");
    const a = await newIssue(h, "a", { milestone: m });
    const done = await newIssue(h, "done", { milestone: m, labels: ["locus:done"] });
    const failed = await newIssue(h, "failed", { milestone: m, labels: ["locus:failed"] });
    // Seeded without its webhook, so no order was given when it joined the milestone.
    const { number: late } = await h.repo.issue({ title: "late", milestone: m }, { as: "alice" });
    await createLocusLabels();
    const since = h.sim.requestLog.length;
    await h
      .as("alice")
      .rest.issues.updateMilestone({ owner, repo, milestone_number: m, description: "Goals\nlocus: active" });
    await h.settle();
    expect(await labelsOf(h, a)).toEqual(["agent:managed", "locus:queued", "order:1"]);
    expect(await labelsOf(h, done)).toEqual(["locus:done", "order:2"]);
    expect(await labelsOf(h, failed)).toEqual(["agent:managed", "locus:queued", "order:3"]);
    expect(await labelsOf(h, late)).toEqual(["agent:managed", "locus:queued", "order:4"]);
    // Every label set in one request (over REST, one each, when a label's id is unknown).
    const labelWrites = h.sim.requestLog
      .slice(since)
      .filter((entry) => entry.login === h.sim.app.botLogin)
      .filter((entry) => entry.operationName === "WriteMoment" || /\/issues\/\d+\/labels$/.test(entry.path))
      .map((entry) => entry.operationName ?? `${entry.method} ${entry.path}`);
    expect(labelWrites).toEqual(["WriteMoment"]);
    expect(
      runs(h)
        .filter((run) => run.inputs.milestone === String(m))
        .map((run) => run.inputs.mode),
    ).toEqual(["sprint"]);

    await h.as("alice").rest.issues.updateMilestone({
      owner,
      repo,
      milestone_number: m,
      description: "Goals\nlocus: active\nmore",
    });
    await h.settle();
    expect(runs(h).filter((run) => run.inputs.milestone === String(m))).toHaveLength(1);
  });

  it("activating a large milestone writes its label sets 50 to a request", async () => {
    const m = await milestone("Large");
    const issues: number[] = [];
    for (let i = 0; i < 60; i++)
      issues.push((await h.repo.issue({ title: `task ${i}`, milestone: m }, { as: "alice" })).number);
    await createLocusLabels();
    const since = h.sim.requestLog.length;
    await h
      .as("alice")
      .rest.issues.updateMilestone({ owner, repo, milestone_number: m, description: "locus: active" });
    await h.settle();
    const writes = h.sim.requestLog.slice(since).filter((entry) => entry.operationName === "WriteMoment");
    expect(writes).toHaveLength(2);
    for (const issue of [issues[0] ?? 0, issues[59] ?? 0])
      expect(await labelsOf(h, issue)).toContain("locus:queued");
  });

  it("ignores activation by someone without write access", async () => {
    const m = await milestone("Not yours");
    await newIssue(h, "x", { milestone: m });
    await h.sim.seed.repo(`${owner}/${repo}`).catch(() => undefined);
    h.repo.collaborator("tria", "triage");
    await h
      .as("tria")
      .rest.issues.updateMilestone({ owner, repo, milestone_number: m, description: "locus: active" });
    await h.settle();
    expect(runs(h).filter((run) => run.inputs.milestone === String(m))).toHaveLength(0);
  });

  it("removes the order label of an issue taken out of its milestone", async () => {
    const m = await milestone("Leaving");
    const issue = await newIssue(h, "leaves", { milestone: m, labels: ["type:bug"] });
    expect(await labelsOf(h, issue)).toEqual(["order:1", "type:bug"]);
    await h.as("alice").rest.issues.update({ owner, repo, issue_number: issue, milestone: null });
    await h.settle();
    expect(await labelsOf(h, issue)).toEqual(["type:bug"]);
  });

  it("reorders a sprint from its tracking issue", async () => {
    const m = await milestone("Tracked");
    const a = await newIssue(h, "a", { milestone: m });
    const b = await newIssue(h, "b", { milestone: m });
    const tracking = await h.repo.issue(
      { title: "Sprint: Tracked", labels: ["agent:managed"] },
      { as: h.sim.app.botLogin },
    );
    await comment(h, "alice", tracking.number, `/locus order ${b} ${a}`);
    expect(await labelsOf(h, b)).toEqual(["order:1"]);
    expect(await labelsOf(h, a)).toEqual(["order:2"]);
    expect((await commentsOf(h, tracking.number)).at(-1)).toContain("New order:");
    // The same title on an issue a person opened is no tracking issue.
    const { data: fake } = await h
      .as("alice")
      .rest.issues.create({ owner, repo, title: "Sprint: Tracked", labels: ["agent:managed"] });
    await h.settle();
    await comment(h, "alice", fake.number, `/locus order ${a} ${b}`);
    expect((await commentsOf(h, fake.number)).at(-1)).toContain("this issue is in no milestone");
  });
});

describe("pull requests and runs", () => {
  it("marks the issue done when its Locus PR merges", async () => {
    const issue = await newIssue(h, "merge me", { labels: ["locus:in-review", "agent:managed"] });
    const pr = await locusPullRequest(issue);
    await h.as("alice").rest.pulls.merge({ owner, repo, pull_number: pr, merge_method: "squash" });
    await h.settle();
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:done"]);
    const { data: closed } = await h.as("alice").rest.issues.get({ owner, repo, issue_number: issue });
    expect([closed.state, closed.state_reason]).toEqual(["closed", "completed"]);
  });

  it("leaves a stacked PR's issue in review when it merges into the task branch below, not the base", async () => {
    const lower = await newIssue(h, "lower", { labels: ["locus:in-review", "agent:managed"] });
    await locusPullRequest(lower);
    const upper = await newIssue(h, "upper", { labels: ["locus:in-review", "agent:managed"] });
    const pr = await locusPullRequest(upper, `locus/issue-${lower}`);

    await h.as("alice").rest.pulls.merge({ owner, repo, pull_number: pr, merge_method: "merge" });
    await h.settle();

    expect(await labelsOf(h, upper)).toEqual(["agent:managed", "locus:in-review"]);
  });

  it("dispatches iterate on a changes-requested review and on /locus iterate, but not for a reader", async () => {
    const issue = await newIssue(h, "review me", { labels: ["locus:in-review"] });
    const pr = await locusPullRequest(issue);
    h.repo.collaborator("bob", "write");
    await h.as("bob").rest.pulls.createReview({
      owner,
      repo,
      pull_number: pr,
      event: "REQUEST_CHANGES",
      body: "Rename it.",
    });
    await h.settle();
    await comment(h, "alice", pr, "/locus iterate use snake_case");
    await comment(h, "eve", pr, "/locus iterate");
    const iterations = runs(h).filter((run) => run.inputs.pr === String(pr));
    expect(iterations.map((run) => [run.inputs.mode, run.inputs.command])).toEqual([
      ["iterate", ""],
      ["iterate", "use snake_case"],
    ]);
  });

  it("refuses /locus iterate on a PR Locus did not open", async () => {
    const issue = await newIssue(h, "human work");
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", h.repo.gitDir, ...args], { encoding: "utf8" }).trim();
    const commit = git("commit-tree", git("rev-parse", "main^{tree}"), "-p", "main", "-m", "human");
    git("update-ref", "refs/heads/feature/human", commit);
    const { data: pr } = await h
      .as("alice")
      .rest.pulls.create({ owner, repo, title: "human", head: "feature/human", base: "main" });
    await h.settle();
    await comment(h, "alice", pr.number, "/locus iterate");
    const reply = (await commentsOf(h, pr.number)).at(-1);
    expect(reply).toContain("works on pull requests Locus opened");
    expect(reply).toContain("set `pr.humanPrs: true` in `.github/locus.yml`");
    expect(runs(h).filter((run) => run.inputs.pr === String(pr.number))).toHaveLength(0);
    expect(issue).toBeGreaterThan(0);
  });

  it("marks the issue failed with the run's link when a Locus run fails", async () => {
    const issue = await newIssue(h, "will fail");
    h.runsConclude("failure");
    await comment(h, "alice", issue, "/locus run");
    h.runsConclude("success");
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:failed"]);
    const last = (await commentsOf(h, issue)).at(-1) ?? "";
    expect(last).toMatch(/Locus's \[workflow run\]\(http[^)]+\/actions\/runs\/\d+\) ended with `failure`/);
  });

  it("redraws the sprint's dashboard when a task's PR merges between runs", async () => {
    const m = await milestone("Dashboarded");
    const issue = await newIssue(h, "dash task", {
      milestone: m,
      labels: ["locus:in-review", "agent:managed", "order:1"],
    });
    const body = renderTrackingDashboard(
      { number: m, title: "Dashboarded" },
      [{ number: issue, title: "dash task", order: 1, labels: ["locus:in-review"], attempts: 1 }],
      { state: "finished", message: "Every task of this run is delivered." },
    );
    const tracking = await h.repo.issue(
      { title: "Sprint: Dashboarded", labels: ["agent:managed"], body },
      { as: h.sim.app.botLogin },
    );
    const pr = await locusPullRequest(issue);
    await h.as("alice").rest.pulls.merge({ owner, repo, pull_number: pr, merge_method: "squash" });
    await h.settle();
    const { data } = await h.as("alice").rest.issues.get({ owner, repo, issue_number: tracking.number });
    expect(data.body).toContain(`| 1 | #${issue} | dash task | done |`);
    expect(data.body).toContain("1/1");
  });

  it("clears the status with a comment when its Locus PR is closed without merging", async () => {
    const issue = await newIssue(h, "reject me", { labels: ["locus:in-review", "agent:managed", "order:1"] });
    const pr = await locusPullRequest(issue);
    await h.as("alice").rest.pulls.update({ owner, repo, pull_number: pr, state: "closed" });
    await h.settle();
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "order:1"]);
    expect((await commentsOf(h, issue)).at(-1)).toContain(`Pull request #${pr} was closed without merging`);
    const { data: open } = await h.as("alice").rest.issues.get({ owner, repo, issue_number: issue });
    expect(open.state).toBe("open");
  });

  it("ignores a PR on a Locus branch that someone else opened, closed without merging", async () => {
    const issue = await newIssue(h, "keep me", { labels: ["locus:in-review", "agent:managed"] });
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", h.repo.gitDir, ...args], { encoding: "utf8" }).trim();
    const commit = git("commit-tree", git("rev-parse", "main^{tree}"), "-p", "main", "-m", "mine");
    git("update-ref", `refs/heads/locus/issue-${issue}`, commit);
    const { data } = await h
      .as("eve")
      .rest.pulls.create({ owner, repo, title: "look-alike", head: `locus/issue-${issue}`, base: "main" });
    await h.settle();
    const before = (await commentsOf(h, issue)).length;
    await h.as("eve").rest.pulls.update({ owner, repo, pull_number: data.number, state: "closed" });
    await h.settle();
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:in-review"]);
    expect(await commentsOf(h, issue)).toHaveLength(before);
  });
});

describe("installation", () => {
  it("creates every Locus label in the repositories it is installed on", async () => {
    const other = await h.sim.seed.repo("acme/site", { install: false });
    h.sim.seed.installation("acme", { webhooks: true });
    await h.settle();
    const { data: labels } = await h
      .as("acme")
      .rest.issues.listLabelsForRepo({ owner: "acme", repo: "site", per_page: 100 });
    expect(labels.map((label) => label.name)).toEqual(
      expect.arrayContaining(["p:critical", "type:docs", "locus:queued", "locus:failed", "agent:managed"]),
    );
    expect(labels.some((label) => label.name.startsWith("order:"))).toBe(false);
    expect(other.repo.name).toBe("site");
  });
});
