/**
 * The README's last fallback: the Action on the workflow's own GITHUB_TOKEN,
 * from a workflow granting `contents`, `issues` and `pull-requests: write`,
 * `checks: read` and `actions: read` (the run's creation time).
 * On a repository that has not allowed GitHub Actions to create pull
 * requests (GitHub's default), GitHub refuses the PR: Locus reports it on the
 * issue, saying which setting to turn on or to use `app-url` instead, keeps
 * the work, and does not crash. Once the setting is on, the same run opens
 * the PR as `github-actions[bot]`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { branchSha } from "../../sandbox/github-sim/git.ts";
import { mintWorkflowToken } from "../../sandbox/github-sim/workflow-token.ts";
import { OWNER, PROJECT_FILES, REPO, startHarness, type Harness } from "./harness.ts";

const WORKFLOW = ".github/workflows/locus.yml";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    [WORKFLOW]: `on: workflow_dispatch\npermissions:\n  contents: write\n  issues: write\n  pull-requests: write\n  checks: read\n  actions: read\njobs:\n  locus:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: locus-dev/locus@v1\n`,
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** The job's GITHUB_TOKEN, as the simulator mints it from the workflow file above. */
async function jobToken(): Promise<string> {
  const repo = h.sim.store.repos.get(`${OWNER}/${REPO}`);
  const headSha = await branchSha(h.repo.gitDir, "main");
  if (!repo || !headSha) throw new Error("no repository");
  return (await mintWorkflowToken(h.sim.store, repo, { workflowPath: WORKFLOW, headSha }, {})).token;
}

const greetHi = [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

describe("the Action on the workflow's GITHUB_TOKEN", () => {
  it("reports GitHub's refusal to open the PR with the setting to change, keeps the work, and opens it once allowed", async () => {
    const issue = await h.api.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    h.fake.setScript(greetHi);

    const refused = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "github-token": await jobToken(),
    });

    expect(refused.code).not.toBeNull();
    expect(refused.outputs["status"]).toBe("failed");
    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toContain("locus:failed");
    const report = after?.comments.find((c) => c.body.includes("could not finish"))?.body ?? "";
    expect(report).toContain("GitHub Actions is not permitted to create or approve pull requests.");
    expect(report).toContain("Allow GitHub Actions to create and approve pull requests");
    expect(report).toContain("app-url");
    expect(report).not.toContain("lacks the");
    const kept = await h.git(["ls-remote", "--heads", "origin"]);
    expect(kept).toMatch(new RegExp(`refs/heads/locus/(wip/)?issue-${issue.number}\\n`));

    const owner = await fetch(`${h.sim.apiUrl}/repos/${OWNER}/${REPO}/actions/permissions/workflow`, {
      method: "PUT",
      headers: { authorization: `token ${h.sim.as(OWNER)}`, "content-type": "application/json" },
      body: JSON.stringify({ can_approve_pull_request_reviews: true }),
    });
    expect(owner.status).toBe(204);
    await h.api.setLabels(issue.number, ["locus:queued"]);
    h.fake.setScript(greetHi);

    const allowed = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "github-token": await jobToken(),
    });

    expect(allowed.outputs["status"]).toBe("succeeded");
    // The job's log says what the run cost, in calls and in GraphQL points.
    expect(allowed.stdout).toMatch(/GitHub calls: \d+ \(.*\); GraphQL points: [1-9]\d* \(.*TaskIssue \d+/);
    const pr = await h.api.getPullRequest(Number(allowed.outputs["pr-number"]));
    expect(pr?.author).toBe("github-actions[bot]");
  }, 120_000);
});
