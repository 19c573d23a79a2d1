/**
 * Every path to a run checks the writer, through the real webhook server and
 * the simulator: status labels and milestones set by a triage user are taken
 * back and start nothing, `review.onOpen` reviews only PRs Locus opened in
 * this repository (not a writer's, not a fork's), and a failed workflow run
 * counts only when it ran the configured Locus workflow file.
 */
import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appCalls, commentsOf, labelsOf, newIssue, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, WEBHOOK_SECRET, type AppHarness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness({
    files: {
      "README.md": "# demo\n",
      ...callerWorkflowFiles(),
      // A workflow anyone with write access can run, titled like Locus's runs.
      ".github/workflows/ci.yml": [
        "name: CI",
        "run-name: 'Locus ${{ inputs.mode }} #${{ inputs.issue }} (${{ inputs.delivery }})'",
        "on:",
        "  workflow_dispatch:",
        "    inputs: { mode: { type: string }, issue: { type: string }, delivery: { type: string } }",
        "jobs: {}",
        "",
      ].join("\n"),
      ".github/locus.yml": "version: 3\nreview:\n  onOpen: true\n",
    },
  });
  h.repo.collaborator("tracy", "triage");
});
afterAll(async () => {
  await h.close();
});

async function addLabel(login: string, issue: number, label: string): Promise<void> {
  await h.as(login).rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [label] });
  await h.settle();
}

function branchWithCommit(branch: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", h.repo.gitDir, ...args], { encoding: "utf8" }).trim();
  const commit = git("commit-tree", git("rev-parse", "main^{tree}"), "-p", "main", "-m", "work");
  git("update-ref", `refs/heads/${branch}`, commit);
}

describe("status labels", () => {
  it.each(["locus:failed", "locus:in-progress", "locus:done"])(
    "takes %s back off when a triage user adds it, and starts nothing",
    async (label) => {
      const issue = await newIssue(h, `triage sets ${label}`);
      const before = runs(h).length;

      await addLabel("tracy", issue, label);

      expect(await labelsOf(h, issue)).toEqual([]);
      expect(runs(h).length).toBe(before);
      expect(await commentsOf(h, issue)).toEqual([]);
    },
  );

  it("leaves a writer's status label alone", async () => {
    const issue = await newIssue(h, "writer sets failed");
    await addLabel("alice", issue, "locus:failed");
    expect(await labelsOf(h, issue)).toEqual(["locus:failed"]);
  });
});

describe("sprint membership", () => {
  it("takes an issue a triage user put in a milestone out again, with no order and no run", async () => {
    const { data: milestone } = await h
      .as("alice")
      .rest.issues.createMilestone({ owner, repo, title: "Sprint T", description: "locus: active" });
    await h.settle();
    const issue = await newIssue(h, "sneaked in");
    const before = runs(h).length;

    await h.as("tracy").rest.issues.update({ owner, repo, issue_number: issue, milestone: milestone.number });
    await h.settle();

    const { data: after } = await h.as("alice").rest.issues.get({ owner, repo, issue_number: issue });
    expect(after.milestone).toBeNull();
    expect(await labelsOf(h, issue)).toEqual([]);
    expect(runs(h).length).toBe(before);
  });

  it("gives an issue a writer put in the milestone its order", async () => {
    const { data: milestone } = await h
      .as("alice")
      .rest.issues.createMilestone({ owner, repo, title: "Sprint W" });
    const issue = await newIssue(h, "added by a writer");
    await h.as("alice").rest.issues.update({ owner, repo, issue_number: issue, milestone: milestone.number });
    await h.settle();
    expect(await labelsOf(h, issue)).toEqual(["order:1"]);
  });
});

describe("review.onOpen", () => {
  it("reviews a PR Locus opened on locus/issue-<N>, but not a writer's PR from a branch of that name", async () => {
    const issue = await newIssue(h, "reviewed work");
    branchWithCommit(`locus/issue-${issue}`);
    const { data: byLocus } = await h
      .as(h.sim.app.botLogin)
      .rest.pulls.create({ owner, repo, title: "work", head: `locus/issue-${issue}`, base: "main" });
    await h.settle();
    const other = await newIssue(h, "human work");
    branchWithCommit(`locus/issue-${other}`);
    const { data: byAlice } = await h
      .as("alice")
      .rest.pulls.create({ owner, repo, title: "mine", head: `locus/issue-${other}`, base: "main" });
    await h.settle();

    const reviews = runs(h).filter((run) => run.inputs.mode === "review");
    expect(reviews.map((run) => run.inputs.pr)).toContain(String(byLocus.number));
    expect(reviews.map((run) => run.inputs.pr)).not.toContain(String(byAlice.number));
  });

  it("never reviews a fork's PR from a locus/issue-<N> branch, and makes no GitHub call for it", async () => {
    const examples = createRequire(import.meta.url)(
      "@octokit/webhooks-examples/api.github.com/index.json",
    ) as Array<{
      name: string;
      examples: Array<Record<string, unknown>>;
    }>;
    const example = examples
      .find((g) => g.name === "pull_request")
      ?.examples.find((e) => e["action"] === "opened");
    const payload = structuredClone(example) as Record<string, unknown> & {
      pull_request: Record<string, unknown> & {
        head: Record<string, unknown>;
        user: Record<string, unknown>;
      };
    };
    const installation = [...h.sim.store.installations.values()].find((i) => i.account === owner);
    payload.repository = { ...(payload.repository as object), name: repo, full_name: `${owner}/${repo}` };
    payload.installation = { id: installation?.id };
    payload.pull_request.number = 999;
    payload.pull_request.user = { login: h.sim.app.botLogin, id: 9, type: "Bot" };
    payload.pull_request.head = {
      ...payload.pull_request.head,
      ref: "locus/issue-1",
      repo: { name: repo, full_name: `mallory/${repo}` },
    };
    const body = JSON.stringify(payload);
    const before = h.sim.requestLog.length;

    const response = await fetch(h.webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`,
      },
      body,
    });
    await response.text();
    await h.settle();

    expect(response.status).toBe(200);
    expect(appCalls(h, before)).toEqual([]);
  });
});

describe("workflow runs", () => {
  it("a failed run of another workflow titled like Locus's does not mark the issue failed", async () => {
    const issue = await newIssue(h, "in progress", { labels: ["locus:in-progress"] });
    h.runsConclude("failure");
    await h.as("alice").rest.actions.createWorkflowDispatch({
      owner,
      repo,
      workflow_id: "ci.yml",
      ref: "main",
      inputs: { mode: "issue", issue: String(issue), delivery: "fork-ci" },
    });
    await h.settle();
    h.runsConclude("success");

    const run = runs(h).find((r) => r.inputs.delivery === "fork-ci");
    expect(run?.displayTitle).toBe(`Locus issue #${issue} (fork-ci)`);
    expect(await labelsOf(h, issue)).toEqual(["locus:in-progress"]);
  });
});

describe("replies", () => {
  it("answers /locus help without echoing the user's other lines", async () => {
    const issue = await newIssue(h, "help wanted");
    await h.as("eve").rest.issues.createComment({
      owner,
      repo,
      issue_number: issue,
      body: "/locus help\n/locus run ![x](https://evil.example/p.png) @acme/everyone fixes #1",
    });
    await h.settle();

    const replies = await commentsOf(h, issue);
    const reply = replies.find((body) => body.includes("**Locus commands**"));
    expect(reply).toContain("the other command lines were ignored");
    expect(reply).not.toContain("evil.example");
    expect(reply).not.toContain("@acme/everyone");
    expect(reply).not.toContain("fixes #1");
  });
});

describe("flood limits", () => {
  it("answers one refused or malformed command per person per issue, reacting to the rest", async () => {
    const issue = await newIssue(h, "flooded");
    for (const body of ["/locus run", "/locus run", "/locus bogus", "/locus run"]) {
      await h.as("eve").rest.issues.createComment({ owner, repo, issue_number: issue, body });
      await h.settle();
    }
    const replies = (await commentsOf(h, issue)).filter((body) => body.includes("locus:reply-to"));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain("write access");
    expect(runs(h).filter((run) => run.inputs.issue === String(issue))).toHaveLength(0);
  });

  it("answers help once per thread within the window", async () => {
    const issue = await newIssue(h, "help twice");
    for (const login of ["eve", "alice", "eve"]) {
      await h.as(login).rest.issues.createComment({ owner, repo, issue_number: issue, body: "/locus help" });
      await h.settle();
    }
    const replies = (await commentsOf(h, issue)).filter((body) => body.includes("**Locus commands**"));
    expect(replies).toHaveLength(1);
  });
});

describe("Locus on GITHUB_TOKEN", () => {
  it("leaves the status labels the Actions bot sets alone", async () => {
    h.repo.collaborator("github-actions[bot]", "write");
    const issue = await newIssue(h, "worked by the Actions bot");
    await addLabel("github-actions[bot]", issue, "locus:in-progress");
    expect(await labelsOf(h, issue)).toEqual(["locus:in-progress"]);
  });
});
