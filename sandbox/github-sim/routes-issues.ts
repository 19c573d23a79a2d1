import type { RequestContext, Route, RouteResult } from "./core.ts";
import { recordEdit } from "./content-edits.ts";
import { recordIssueEvent } from "./issue-events.ts";
import { BODY_TOO_LONG, MAX_ISSUE_BODY } from "./body-limit.ts";
import { validationFailed } from "./http-error.ts";
import { applyLabels, applyMilestone, applyState, emitIssueEvent } from "./issue-mutations.ts";
import type { Issue, Repo } from "./model.ts";
import {
  actorUser,
  bodyObject,
  now,
  optionalString,
  paged,
  requireIssue,
  requirePermission,
  requireRepo,
  requiredString,
  sinceFilter,
} from "./route-helpers.ts";
import { issueJson } from "./serialize-issue.ts";
import { findMilestone, hasPermission, issueLabels, milestoneById, permissionOf } from "./store.ts";

function milestoneFilter(repo: Repo, value: string | null): (issue: Issue) => boolean {
  if (value === null) return () => true;
  if (value === "*") return (issue) => issue.milestoneId !== null;
  if (value === "none") return (issue) => issue.milestoneId === null;
  const milestone = findMilestone(repo, Number(value));
  if (!milestone) throw validationFailed([{ resource: "Issue", field: "milestone", code: "invalid" }]);
  return (issue) => issue.milestoneId === milestone.id;
}

function listIssues(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const state = ctx.query.get("state") ?? "open";
  const labels = (ctx.query.get("labels") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name.length > 0);
  const inMilestone = milestoneFilter(repo, ctx.query.get("milestone"));
  const since = sinceFilter(ctx);
  const creator = ctx.query.get("creator")?.toLowerCase();
  const assignee = ctx.query.get("assignee")?.toLowerCase();
  const sort = ctx.query.get("sort") ?? "created";
  const direction = ctx.query.get("direction") ?? "desc";
  const issues = [...repo.issues.values()].filter((issue) => {
    if (state !== "all" && issue.state !== state) return false;
    const names = issueLabels(repo, issue).map((label) => label.name.toLowerCase());
    if (!labels.every((name) => names.includes(name))) return false;
    if (creator && issue.author.toLowerCase() !== creator) return false;
    if (assignee === "none" && issue.assignees.length > 0) return false;
    if (
      assignee &&
      assignee !== "none" &&
      assignee !== "*" &&
      !issue.assignees.some((login) => login.toLowerCase() === assignee)
    ) {
      return false;
    }
    return inMilestone(issue) && since(issue.updatedAt);
  });
  const key = (issue: Issue): string | number =>
    sort === "updated"
      ? issue.updatedAt
      : sort === "comments"
        ? repo.comments.filter((c) => c.issueNumber === issue.number).length
        : issue.number;
  issues.sort((a, b) => {
    const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.number - b.number;
    return direction === "asc" ? order : -order;
  });
  return paged(ctx, issues, (issue) => issueJson(ctx.core, repo, issue));
}

function milestoneIdFrom(repo: Repo, value: unknown): number | null {
  if (value === null) return null;
  const milestone =
    typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))
      ? findMilestone(repo, Number(value))
      : undefined;
  if (!milestone) throw validationFailed([{ resource: "Issue", field: "milestone", code: "invalid" }]);
  return milestone.id;
}

function stringList(value: unknown, field: string): string[] {
  if (
    !Array.isArray(value) ||
    !value.every((item) => typeof item === "string" || (typeof item === "object" && item !== null))
  ) {
    throw validationFailed([{ resource: "Issue", field, code: "invalid" }]);
  }
  return value.map((item: unknown) =>
    typeof item === "string" ? item : String((item as { name?: unknown }).name),
  );
}

async function createIssue(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const author = actorUser(ctx);
  const body = bodyObject(ctx);
  const title = body.title;
  if (typeof title !== "string" && typeof title !== "number")
    throw validationFailed([{ resource: "Issue", field: "title", code: "missing_field" }]);
  // Without triage access GitHub silently drops labels, milestone and assignees.
  const canTriage = hasPermission(permissionOf(ctx.core.store, repo, author.login), "triage");
  const at = now(ctx);
  const issue: Issue = {
    id: ctx.core.store.nextId(),
    number: repo.nextIssueNumber,
    title: String(title),
    body: optionalString(body, "body", "Issue") ?? null,
    state: "open",
    stateReason: null,
    author: author.login,
    labelIds: [],
    milestoneId:
      canTriage && body.milestone !== undefined && body.milestone !== null
        ? milestoneIdFrom(repo, body.milestone)
        : null,
    assignees: canTriage && body.assignees !== undefined ? stringList(body.assignees, "assignees") : [],
    locked: false,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    closedBy: null,
    pull: null,
  };
  repo.nextIssueNumber += 1;
  repo.issues.set(issue.number, issue);
  const labels = canTriage && body.labels !== undefined ? stringList(body.labels, "labels") : [];
  await emitIssueEvent(ctx, repo, issue, "opened");
  await applyLabels(ctx, repo, issue, labels);
  const milestone = milestoneById(repo, issue.milestoneId);
  if (milestone) {
    issue.milestoneId = null;
    await applyMilestone(ctx, repo, issue, milestone.id);
  }
  return {
    status: 201,
    body: issueJson(ctx.core, repo, issue),
    headers: { location: `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}/issues/${issue.number}` },
  };
}

export async function updateIssueFields(
  ctx: RequestContext,
  repo: Repo,
  issue: Issue,
  body: Record<string, unknown>,
): Promise<void> {
  const changes: Record<string, { from: unknown }> = {};
  const title = optionalString(body, "title", "Issue");
  if (title !== undefined && title !== issue.title) {
    changes.title = { from: issue.title };
    recordIssueEvent(ctx, issue, { kind: "renamed", previousTitle: issue.title, currentTitle: title });
    issue.title = title;
  }
  if (body.body !== undefined) {
    const text = body.body === null ? null : requiredString(body, "body", "Issue");
    if (text !== null && text.length > MAX_ISSUE_BODY)
      throw validationFailed([{ resource: "Issue", field: "body", code: "custom", message: BODY_TOO_LONG }]);
    if (text !== issue.body) {
      changes.body = { from: issue.body };
      recordEdit(issue, issue.body, text, now(ctx), actorUser(ctx).login);
      issue.body = text;
    }
  }
  if (Object.keys(changes).length > 0) {
    issue.updatedAt = now(ctx);
    await emitIssueEvent(ctx, repo, issue, "edited", { changes });
  }
  const triage = hasPermission(permissionOf(ctx.core.store, repo, actorUser(ctx).login), "triage");
  if (triage && body.labels !== undefined)
    await applyLabels(ctx, repo, issue, stringList(body.labels, "labels"));
  if (triage && body.assignees !== undefined) issue.assignees = stringList(body.assignees, "assignees");
  if (triage && body.milestone !== undefined)
    await applyMilestone(ctx, repo, issue, milestoneIdFrom(repo, body.milestone));
  const state = optionalString(body, "state", "Issue");
  if (state !== undefined) {
    if (state !== "open" && state !== "closed")
      throw validationFailed([{ resource: "Issue", field: "state", code: "invalid" }]);
    const reason = optionalString(body, "state_reason", "Issue");
    const stateReason =
      reason === "not_planned"
        ? "not_planned"
        : reason === "reopened"
          ? "reopened"
          : reason === undefined
            ? null
            : "completed";
    await applyState(ctx, repo, issue, state, stateReason);
  }
}

async function updateIssue(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const issue = requireIssue(ctx, repo);
  const user = actorUser(ctx);
  if (issue.author.toLowerCase() !== user.login.toLowerCase()) requirePermission(ctx, repo, "triage");
  await updateIssueFields(ctx, repo, issue, bodyObject(ctx));
  return { status: 200, body: issueJson(ctx.core, repo, issue) };
}

export const issueRoutes: Route[] = [
  { method: "GET", template: "/repos/{owner}/{repo}/issues", auth: "token", handler: listIssues },
  { method: "POST", template: "/repos/{owner}/{repo}/issues", auth: "token", handler: createIssue },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/{issue_number}",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      return { status: 200, body: issueJson(ctx.core, repo, requireIssue(ctx, repo)) };
    },
  },
  {
    method: "PATCH",
    template: "/repos/{owner}/{repo}/issues/{issue_number}",
    auth: "token",
    handler: updateIssue,
  },
];
