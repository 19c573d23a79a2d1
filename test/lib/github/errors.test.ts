import nock from "nock";
import { describe, expect, it } from "vitest";
import type { GitHubError } from "../../../lib/github/index.ts";
import { isGitHubError } from "../../../lib/github/index.ts";
import { API, R, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

async function failure(promise: Promise<unknown>): Promise<GitHubError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isGitHubError(error)) throw new Error(`expected a GitHubError, got ${String(error)}`);
  return error;
}

describe("GitHubError", () => {
  it("401 names the credentials to check", async () => {
    const { gateway } = testGateway();
    nock(API).get(R).reply(401, { message: "Bad credentials" });

    const error = await failure(gateway.getDefaultBranch());

    expect(error).toMatchObject({ name: "GitHubError", status: 401, route: "GET /repos/{owner}/{repo}" });
    expect(error.message).toContain("Bad credentials");
    expect(error.message).toContain("check the github-token input");
  });

  it("403 names the permission the route needs", async () => {
    const { gateway } = testGateway();
    nock(API).put(`${R}/issues/3/labels`).reply(403, { message: "Resource not accessible by integration" });

    const error = await failure(gateway.setLabels(3, ["locus:done"]));

    expect(error.status).toBe(403);
    expect(error.route).toBe("PUT /repos/{owner}/{repo}/issues/{issue_number}/labels");
    expect(error.message).toContain('lacks the "issues: write" permission');
    expect(error.message).toContain(`${API}${R}/issues/3/labels`);
  });

  it("403 names the permission GitHub says it accepts, and where to grant it", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/check-runs/7/annotations`)
      .query(true)
      .reply(
        403,
        { message: "Resource not accessible by integration" },
        { "x-accepted-github-permissions": "checks=read" },
      );
    nock(API)
      .post(`${R}/issues/3/comments`)
      .reply(
        403,
        { message: "Resource not accessible by integration" },
        { "x-accepted-github-permissions": "issues=write; pull_requests=write" },
      );

    const checks = await failure(gateway.ci.annotations(7, 10));
    const comment = await failure(gateway.createComment(3, "hi"));

    expect(checks.message).toContain('lacks the "checks: read" permission');
    expect(checks.message).toContain("grant it to the GitHub App (its settings page, Permissions & events");
    expect(checks.message).toContain("the workflow's `permissions:`");
    expect(comment.message).toContain('lacks the "issues: write" or "pull_requests: write" permission');
    expect([checks.permissionRefused, comment.permissionRefused]).toEqual([true, true]);
  });

  it("a FORBIDDEN workflow run in the task read names actions: read", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post("/graphql")
      .reply(200, {
        data: null,
        errors: [{ type: "FORBIDDEN", path: ["run"], message: "Resource not accessible by integration" }],
      });

    const error = await failure(
      gateway.readTask(3, { managedLabel: "agent:managed", runUrl: "https://github.com/o/r/actions/runs/1" }),
    );

    expect(error.message).toContain(
      '(run): Resource not accessible by integration. The token lacks the "actions: read" permission',
    );
    expect(error.message).toContain("grant it to the GitHub App");
    expect(error.permissionRefused).toBe(true);
  });

  it("403 when GitHub Actions may not open pull requests names the repository setting, not a permission", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/pulls`)
      .reply(403, { message: "GitHub Actions is not permitted to create or approve pull requests." });

    const error = await failure(
      gateway.createPullRequest({ title: "t", body: "b", head: "h", base: "main" }),
    );

    expect(error.status).toBe(403);
    expect(error.message).toContain("Allow GitHub Actions to create and approve pull requests");
    expect(error.message).toContain("app-url");
    expect(error.message).not.toContain("lacks the");
    expect(error.permissionRefused).toBe(false);
  });

  it("403 on a workflow dispatch names the actions permission", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/actions/workflows/locus.yml/dispatches`)
      .reply(403, { message: "Resource not accessible by integration" });

    const error = await failure(gateway.dispatchWorkflow("locus.yml", "main", { mode: "issue" }));

    expect(error.message).toContain('"actions: write"');
  });

  it("404 where something must exist explains what may be wrong", async () => {
    const { gateway } = testGateway();
    nock(API).patch(`${R}/issues/999`).reply(404, { message: "Not Found" });

    const error = await failure(gateway.updateIssue(999, { state: "closed" }));

    expect(error.status).toBe(404);
    expect(error.message).toMatch(/does not exist, or the token cannot see it/);
  });

  it("422 carries GitHub's validation details", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/actions/workflows/locus.yml/dispatches`)
      .reply(422, { message: "Workflow does not have 'workflow_dispatch' trigger" });
    nock(API)
      .post(`${R}/pulls`)
      .reply(422, {
        message: "Validation Failed",
        errors: [
          {
            resource: "PullRequest",
            code: "custom",
            message: "A pull request already exists for acme:locus/issue-1.",
          },
        ],
      });

    const dispatch = await failure(gateway.dispatchWorkflow("locus.yml", "main", {}));
    const pr = await failure(
      gateway.createPullRequest({ title: "t", body: "b", head: "locus/issue-1", base: "main" }),
    );

    expect(dispatch.message).toContain("Workflow does not have 'workflow_dispatch' trigger");
    expect(pr.message).toContain("Validation Failed (A pull request already exists for acme:locus/issue-1.)");
  });

  it("an unreachable host is status 0 and points at the API URL", async () => {
    const { gateway } = testGateway({ maxRetries: 1 });
    nock(API).get(R).times(2).replyWithError("getaddrinfo ENOTFOUND api.github.com");

    const error = await failure(gateway.getDefaultBranch());

    expect(error.status).toBe(0);
    expect(error.message).toContain("Could not reach GitHub");
    expect(error.message).toContain("GITHUB_API_URL");
  });

  it("an answer that does not match the schema is a GitHubError, not a crash later", async () => {
    const { gateway } = testGateway();
    nock(API).get(R).reply(200, { default_branch: 42 });

    const error = await failure(gateway.getDefaultBranch());

    expect(error.message).toContain("default_branch");
    expect(error.status).toBe(200);
  });
});

describe("base URL", () => {
  it("prefixes REST and routes GraphQL to /api/graphql on GitHub Enterprise Server", async () => {
    const GHES = "https://ghe.example.com";
    const { gateway } = testGateway({ baseUrl: `${GHES}/api/v3/` });
    nock(GHES)
      .get("/api/v3/repos/acme/widgets")
      .reply(200, { default_branch: "main" })
      .post("/api/graphql")
      .reply(200, { data: { repository: { milestone: null } } });

    expect(await gateway.getDefaultBranch()).toBe("main");
    expect(await gateway.listMilestoneIssues(1)).toBeNull();
  });

  it("talks to a local simulator over plain HTTP", async () => {
    const SIM = "http://127.0.0.1:4010";
    const { gateway } = testGateway({ baseUrl: SIM });
    nock(SIM)
      .get("/repos/acme/widgets")
      .reply(200, { default_branch: "main" })
      .post("/graphql")
      .reply(200, { data: { repository: { milestone: null } } });

    expect(await gateway.getDefaultBranch()).toBe("main");
    expect(await gateway.listMilestoneIssues(1)).toBeNull();
  });
});
