/**
 * A repository's "Workflow permissions" (Settings → Actions → General), as
 * the REST API reads and sets them: the default permissions of a job's
 * GITHUB_TOKEN and whether GitHub Actions may create and approve pull
 * requests (workflow-token.ts, workflow-token-rules.ts). Setting them takes
 * the repository's admin.
 * https://docs.github.com/rest/actions/permissions#get-default-workflow-permissions-for-a-repository
 * https://docs.github.com/rest/actions/permissions#set-default-workflow-permissions-for-a-repository
 */
import type { RequestContext, Route, RouteResult } from "./core.ts";
import { validationFailed } from "./http-error.ts";
import { bodyObject, requirePermission, requireRepo } from "./route-helpers.ts";
import { workflowSettings } from "./workflow-token.ts";

function read(ctx: RequestContext): RouteResult {
  const settings = workflowSettings(requireRepo(ctx));
  return {
    status: 200,
    body: {
      default_workflow_permissions: settings.defaultWorkflowPermissions,
      can_approve_pull_request_reviews: settings.canApprovePullRequestReviews,
    },
  };
}

function write(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "admin");
  const body = bodyObject(ctx);
  const level = body.default_workflow_permissions;
  const approve = body.can_approve_pull_request_reviews;
  if (level !== undefined && level !== "read" && level !== "write")
    throw validationFailed([
      { resource: "Repository", field: "default_workflow_permissions", code: "invalid" },
    ]);
  if (approve !== undefined && typeof approve !== "boolean")
    throw validationFailed([
      { resource: "Repository", field: "can_approve_pull_request_reviews", code: "invalid" },
    ]);
  const settings = workflowSettings(repo);
  if (level !== undefined) settings.defaultWorkflowPermissions = level;
  if (approve !== undefined) settings.canApprovePullRequestReviews = approve;
  return { status: 204 };
}

const TEMPLATE = "/repos/{owner}/{repo}/actions/permissions/workflow";

export const workflowPermissionRoutes: Route[] = [
  { method: "GET", template: TEMPLATE, auth: "token", handler: read },
  { method: "PUT", template: TEMPLATE, auth: "token", handler: write },
];
