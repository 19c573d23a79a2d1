import type { RequestContext, Route, RouteResult } from "./core.ts";
import { HttpError, validationFailed } from "./http-error.ts";
import { applyLabels } from "./issue-mutations.ts";
import type { Issue, Label, Repo } from "./model.ts";
import {
  bodyObject,
  optionalString,
  paged,
  requireIssue,
  requirePermission,
  requireRepo,
  requiredString,
} from "./route-helpers.ts";
import { labelJson } from "./serialize-issue.ts";
import { findLabel, issueLabels } from "./store.ts";

function labelNotFound(): HttpError {
  return new HttpError(404, {
    message: "Not Found",
    documentation_url: "https://docs.github.com/rest/issues/labels",
    status: "404",
  });
}

function requireLabel(ctx: RequestContext, repo: Repo): Label {
  const label = findLabel(repo, ctx.params.name ?? "");
  if (!label) throw labelNotFound();
  return label;
}

function normaliseColor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const color = value.replace(/^#/, "");
  if (!/^[0-9a-fA-F]{6}$/.test(color))
    throw validationFailed([{ resource: "Label", field: "color", code: "invalid" }]);
  return color.toLowerCase();
}

function createLabel(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const body = bodyObject(ctx);
  const name = requiredString(body, "name", "Label");
  if (findLabel(repo, name))
    throw validationFailed([{ resource: "Label", field: "name", code: "already_exists" }]);
  const label: Label = {
    id: ctx.core.store.nextId(),
    name,
    color: normaliseColor(optionalString(body, "color", "Label")) ?? "ededed",
    description: optionalString(body, "description", "Label") ?? null,
    isDefault: false,
  };
  repo.labels.push(label);
  return { status: 201, body: labelJson(ctx.core, repo, label) };
}

function updateLabel(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const label = requireLabel(ctx, repo);
  const body = bodyObject(ctx);
  const newName = optionalString(body, "new_name", "Label");
  if (
    newName !== undefined &&
    newName.toLowerCase() !== label.name.toLowerCase() &&
    findLabel(repo, newName)
  ) {
    throw validationFailed([{ resource: "Label", field: "name", code: "already_exists" }]);
  }
  if (newName !== undefined) label.name = newName;
  label.color = normaliseColor(optionalString(body, "color", "Label")) ?? label.color;
  const description = optionalString(body, "description", "Label");
  if (description !== undefined) label.description = description;
  return { status: 200, body: labelJson(ctx.core, repo, label) };
}

function deleteLabel(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const label = requireLabel(ctx, repo);
  repo.labels = repo.labels.filter((candidate) => candidate.id !== label.id);
  for (const issue of repo.issues.values()) issue.labelIds = issue.labelIds.filter((id) => id !== label.id);
  return { status: 204 };
}

// Accepts every body shape GitHub does: {labels: ["a"]}, {labels: [{name}]}, ["a"], [{name}].
function labelNames(body: unknown): string[] {
  const list = Array.isArray(body) ? body : (body as { labels?: unknown } | null | undefined)?.labels;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw validationFailed([{ resource: "Label", field: "labels", code: "invalid" }]);
  return list.map((item: unknown) => {
    if (typeof item === "string") return item;
    if (typeof item === "object" && item !== null && typeof (item as { name?: unknown }).name === "string") {
      return (item as { name: string }).name;
    }
    throw validationFailed([{ resource: "Label", field: "labels", code: "invalid" }]);
  });
}

function currentLabels(ctx: RequestContext, repo: Repo, issue: Issue): RouteResult {
  return { status: 200, body: issueLabels(repo, issue).map((label) => labelJson(ctx.core, repo, label)) };
}

async function setIssueLabels(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  const issue = requireIssue(ctx, repo);
  await applyLabels(ctx, repo, issue, labelNames(ctx.body));
  return currentLabels(ctx, repo, issue);
}

async function addIssueLabels(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  const issue = requireIssue(ctx, repo);
  const existing = issueLabels(repo, issue).map((label) => label.name);
  await applyLabels(ctx, repo, issue, [...existing, ...labelNames(ctx.body)]);
  return currentLabels(ctx, repo, issue);
}

async function removeIssueLabel(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  const issue = requireIssue(ctx, repo);
  const label = findLabel(repo, ctx.params.name ?? "");
  if (!label || !issue.labelIds.includes(label.id)) {
    throw new HttpError(404, {
      message: "Label does not exist",
      documentation_url: "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue",
      status: "404",
    });
  }
  const remaining = issueLabels(repo, issue).filter((candidate) => candidate.id !== label.id);
  await applyLabels(
    ctx,
    repo,
    issue,
    remaining.map((candidate) => candidate.name),
  );
  return currentLabels(ctx, repo, issue);
}

async function removeAllIssueLabels(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  await applyLabels(ctx, repo, requireIssue(ctx, repo), []);
  return { status: 204 };
}

export const labelRoutes: Route[] = [
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/labels",
    auth: "token",
    handler: (ctx) =>
      paged(ctx, requireRepo(ctx).labels, (label) => labelJson(ctx.core, requireRepo(ctx), label)),
  },
  { method: "POST", template: "/repos/{owner}/{repo}/labels", auth: "token", handler: createLabel },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/labels/{name}",
    auth: "token",
    handler: (ctx) => ({
      status: 200,
      body: labelJson(ctx.core, requireRepo(ctx), requireLabel(ctx, requireRepo(ctx))),
    }),
  },
  { method: "PATCH", template: "/repos/{owner}/{repo}/labels/{name}", auth: "token", handler: updateLabel },
  { method: "DELETE", template: "/repos/{owner}/{repo}/labels/{name}", auth: "token", handler: deleteLabel },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/labels",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      return paged(ctx, issueLabels(repo, requireIssue(ctx, repo)), (label) =>
        labelJson(ctx.core, repo, label),
      );
    },
  },
  {
    method: "PUT",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/labels",
    auth: "token",
    handler: setIssueLabels,
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/labels",
    auth: "token",
    handler: addIssueLabels,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/labels",
    auth: "token",
    handler: removeAllIssueLabels,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
    auth: "token",
    handler: removeIssueLabel,
  },
];
