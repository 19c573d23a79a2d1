/**
 * The simulator's permission table is GitHub's published data (vendored
 * from github/docs), not a guess: check runs need `checks`, merging needs
 * `contents: write`, a comment on an issue number takes issues or pull
 * requests, and every route the simulator serves to tokens is either listed
 * there or documented as needing no permission.
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
import { describe, expect, it } from "vitest";
import {
  PERMISSION_VERSIONS,
  loadPermissionTable,
  routePermission,
  type PermissionVersion,
} from "../../../sandbox/github-sim/permission-table.ts";
import { routes } from "../../../sandbox/github-sim/routes.ts";

const R = "/repos/{owner}/{repo}";

function needed(method: string, template: string, version?: PermissionVersion): string[] {
  const permission = routePermission(method, template, version);
  if (permission.kind !== "listed") throw new Error(`${method} ${template} is ${permission.kind}`);
  return permission.needed.map(({ name, access }) => `${name}:${access}`).sort();
}

describe("the REST permission table from GitHub's data", () => {
  it("asks checks: read for check runs, their annotations and check suites, on github.com and GHES", () => {
    for (const version of PERMISSION_VERSIONS)
      for (const template of [
        `${R}/check-runs/{check_run_id}`,
        `${R}/check-runs/{check_run_id}/annotations`,
        `${R}/check-suites/{check_suite_id}`,
        `${R}/check-suites/{check_suite_id}/check-runs`,
        `${R}/commits/{ref}/check-runs`,
        `${R}/commits/{ref}/check-suites`,
      ]) {
        expect(needed("GET", template, version), `${version} ${template}`).toEqual(["checks:read"]);
      }
  });

  it("asks contents: write to merge a pull request, and pull_requests to open or edit one", () => {
    expect(needed("PUT", `${R}/pulls/{pull_number}/merge`)).toEqual(["contents:write"]);
    expect(needed("POST", `${R}/pulls`)).toEqual(["pull_requests:write"]);
    expect(needed("PATCH", `${R}/pulls/{pull_number}`)).toEqual(["pull_requests:write"]);
  });

  it("accepts issues or pull_requests for comments and labels on an issue number", () => {
    expect(needed("POST", `${R}/issues/{issue_number}/comments`)).toEqual([
      "issues:write",
      "pull_requests:write",
    ]);
    expect(needed("PATCH", `${R}/issues/comments/{comment_id}`)).toEqual([
      "issues:write",
      "pull_requests:write",
    ]);
    expect(needed("PUT", `${R}/issues/{issue_number}/labels`)).toEqual([
      "issues:write",
      "pull_requests:write",
    ]);
    // Reading an issue itself is the issues permission's alone.
    expect(needed("GET", `${R}/issues/{issue_number}`)).toEqual(["issues:read"]);
  });

  it("asks actions for workflow runs and jobs, administration for the workflow-token settings", () => {
    expect(needed("GET", `${R}/actions/runs/{run_id}`)).toEqual(["actions:read"]);
    expect(needed("GET", `${R}/actions/jobs/{job_id}/logs`)).toEqual(["actions:read"]);
    expect(needed("POST", `${R}/actions/workflows/{workflow_id}/dispatches`)).toEqual(["actions:write"]);
    expect(needed("PUT", `${R}/actions/permissions/workflow`)).toEqual(["administration:write"]);
  });

  it("asks metadata for the repository and a collaborator's permission, contents for the root directory", () => {
    expect(needed("GET", R)).toEqual(["metadata:read"]);
    expect(needed("GET", `${R}/collaborators/{username}/permission`)).toEqual(["metadata:read"]);
    expect(needed("GET", `${R}/contents`)).toEqual(["contents:read"]);
    expect(needed("GET", `${R}/contents/`)).toEqual(["contents:read"]);
  });

  it("calls a route GitHub does not list unlisted, and the rate limit free", () => {
    expect(routePermission("GET", "/user")).toEqual({ kind: "unlisted" });
    expect(routePermission("DELETE", `${R}/pulls/{pull_number}`)).toEqual({ kind: "unlisted" });
    expect(routePermission("GET", "/rate_limit")).toEqual({ kind: "free" });
  });

  it("covers every route the simulator serves to tokens, but /user, in every vendored version", () => {
    for (const version of PERMISSION_VERSIONS) {
      expect(loadPermissionTable(version).size).toBeGreaterThan(0);
      const unlisted = routes
        .map(({ route }) => route)
        .filter((route) => route.auth !== "jwt")
        .filter((route) => routePermission(route.method, route.template, version).kind === "unlisted")
        .map((route) => `${route.method} ${route.template}`);
      // GET /user answers a person's token only; GitHub refuses it to installation tokens.
      expect(unlisted, version).toEqual(["GET /user"]);
    }
  });
});
