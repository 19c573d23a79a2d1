import type { RequestContext, Route, RouteResult } from "./core.ts";
import { notFound, validationFailed } from "./http-error.ts";
import type { Milestone, Repo } from "./model.ts";
import {
  actorUser,
  bodyObject,
  emitRepoEvent,
  intParam,
  now,
  optionalString,
  paged,
  requirePermission,
  requireRepo,
  requiredString,
} from "./route-helpers.ts";
import { milestoneJson } from "./serialize-issue.ts";
import { findMilestone, milestoneCounts } from "./store.ts";

function requireMilestone(ctx: RequestContext, repo: Repo): Milestone {
  const milestone = findMilestone(repo, intParam(ctx, "milestone_number"));
  if (!milestone) throw notFound();
  return milestone;
}

function listMilestones(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const state = ctx.query.get("state") ?? "open";
  const sort = ctx.query.get("sort") ?? "due_on";
  const direction = ctx.query.get("direction") ?? "asc";
  const milestones = repo.milestones.filter((milestone) => state === "all" || milestone.state === state);
  const completeness = (milestone: Milestone): number => {
    const counts = milestoneCounts(repo, milestone);
    return counts.open + counts.closed === 0 ? 0 : counts.closed / (counts.open + counts.closed);
  };
  milestones.sort((a, b) => {
    const order =
      sort === "completeness"
        ? completeness(a) - completeness(b)
        : (a.dueOn ?? "~").localeCompare(b.dueOn ?? "~") || a.number - b.number;
    return direction === "desc" ? -order : order;
  });
  return paged(ctx, milestones, (milestone) => milestoneJson(ctx.core, repo, milestone));
}

function stateFrom(body: Record<string, unknown>): "open" | "closed" | undefined {
  const state = optionalString(body, "state", "Milestone");
  if (state === undefined) return undefined;
  if (state !== "open" && state !== "closed")
    throw validationFailed([{ resource: "Milestone", field: "state", code: "invalid" }]);
  return state;
}

function createMilestone(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  const body = bodyObject(ctx);
  const title = requiredString(body, "title", "Milestone");
  if (repo.milestones.some((milestone) => milestone.title === title)) {
    throw validationFailed([{ resource: "Milestone", field: "title", code: "already_exists" }]);
  }
  const at = now(ctx);
  const state = stateFrom(body) ?? "open";
  const milestone: Milestone = {
    id: ctx.core.store.nextId(),
    number: repo.nextMilestoneNumber,
    title,
    description: optionalString(body, "description", "Milestone") ?? null,
    state,
    creator: actorUser(ctx).login,
    dueOn: optionalString(body, "due_on", "Milestone") ?? null,
    createdAt: at,
    updatedAt: at,
    closedAt: state === "closed" ? at : null,
  };
  repo.nextMilestoneNumber += 1;
  repo.milestones.push(milestone);
  emitRepoEvent(ctx, repo, "milestone", {
    action: "created",
    milestone: milestoneJson(ctx.core, repo, milestone),
  });
  return {
    status: 201,
    body: milestoneJson(ctx.core, repo, milestone),
    headers: {
      location: `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}/milestones/${milestone.number}`,
    },
  };
}

function updateMilestone(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  const milestone = requireMilestone(ctx, repo);
  const body = bodyObject(ctx);
  const changes: Record<string, { from: unknown }> = {};
  const title = optionalString(body, "title", "Milestone");
  if (title !== undefined && title !== milestone.title) {
    changes.title = { from: milestone.title };
    milestone.title = title;
  }
  if (body.description !== undefined) {
    const description =
      body.description === null ? null : (optionalString(body, "description", "Milestone") ?? null);
    if (description !== milestone.description) {
      changes.description = { from: milestone.description };
      milestone.description = description;
    }
  }
  if (body.due_on !== undefined) {
    const dueOn = body.due_on === null ? null : (optionalString(body, "due_on", "Milestone") ?? null);
    if (dueOn !== milestone.dueOn) {
      changes.due_on = { from: milestone.dueOn };
      milestone.dueOn = dueOn;
    }
  }
  const state = stateFrom(body);
  const stateChanged = state !== undefined && state !== milestone.state;
  if (Object.keys(changes).length > 0 || stateChanged) milestone.updatedAt = now(ctx);
  if (Object.keys(changes).length > 0) {
    emitRepoEvent(ctx, repo, "milestone", {
      action: "edited",
      milestone: milestoneJson(ctx.core, repo, milestone),
      changes,
    });
  }
  if (state !== undefined && stateChanged) {
    milestone.state = state;
    milestone.closedAt = state === "closed" ? now(ctx) : null;
    emitRepoEvent(ctx, repo, "milestone", {
      action: state === "closed" ? "closed" : "opened",
      milestone: milestoneJson(ctx.core, repo, milestone),
    });
  }
  return { status: 200, body: milestoneJson(ctx.core, repo, milestone) };
}

function deleteMilestone(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "triage");
  const milestone = requireMilestone(ctx, repo);
  const json = milestoneJson(ctx.core, repo, milestone);
  repo.milestones = repo.milestones.filter((candidate) => candidate.id !== milestone.id);
  for (const issue of repo.issues.values()) if (issue.milestoneId === milestone.id) issue.milestoneId = null;
  emitRepoEvent(ctx, repo, "milestone", { action: "deleted", milestone: json });
  return { status: 204 };
}

export const milestoneRoutes: Route[] = [
  { method: "GET", template: "/repos/{owner}/{repo}/milestones", auth: "token", handler: listMilestones },
  { method: "POST", template: "/repos/{owner}/{repo}/milestones", auth: "token", handler: createMilestone },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/milestones/{milestone_number}",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      return { status: 200, body: milestoneJson(ctx.core, repo, requireMilestone(ctx, repo)) };
    },
  },
  {
    method: "PATCH",
    template: "/repos/{owner}/{repo}/milestones/{milestone_number}",
    auth: "token",
    handler: updateMilestone,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/milestones/{milestone_number}",
    auth: "token",
    handler: deleteMilestone,
  },
];
