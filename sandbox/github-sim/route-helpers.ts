import type { RequestContext, RouteResult } from "./core.ts";
import { badRequest, forbidden, notFound, validationFailed } from "./http-error.ts";
import type { Issue, Permission, Repo, User } from "./model.ts";
import { isoNow } from "./model.ts";
import { repoJson } from "./serialize-repo.ts";
import { userJson } from "./serialize-user.ts";
import { findRepo, hasPermission, installationFor, permissionOf } from "./store.ts";

export function actorUser(ctx: Pick<RequestContext, "actor">): User {
  if (!ctx.actor) throw forbidden("Requires authentication");
  return ctx.actor.user;
}

export function requireRepo(ctx: RequestContext): Repo {
  const repo = findRepo(ctx.core.store, ctx.params.owner ?? "", ctx.params.repo ?? "");
  if (!repo) throw notFound();
  if (ctx.actor && permissionOf(ctx.core.store, repo, ctx.actor.user.login) === "none") throw notFound();
  return repo;
}

export function requirePermission(ctx: RequestContext, repo: Repo, needed: Permission): void {
  const user = actorUser(ctx);
  if (hasPermission(permissionOf(ctx.core.store, repo, user.login), needed)) return;
  throw forbidden(
    user.type === "Bot"
      ? "Resource not accessible by integration"
      : "Resource not accessible by personal access token",
  );
}

export function intParam(ctx: RequestContext, name: string): number {
  const raw = ctx.params[name] ?? "";
  if (!/^\d+$/.test(raw)) throw notFound();
  return Number(raw);
}

export function bodyObject(ctx: RequestContext): Record<string, unknown> {
  if (ctx.body === undefined || ctx.body === null) return {};
  if (typeof ctx.body !== "object" || Array.isArray(ctx.body)) throw badRequest("Problems parsing JSON");
  return ctx.body as Record<string, unknown>;
}

export function optionalString(
  body: Record<string, unknown>,
  key: string,
  resource: string,
): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    throw validationFailed([{ resource, field: key, code: "invalid", message: `${key} is not a string` }]);
  }
  return value;
}

export function requiredString(body: Record<string, unknown>, key: string, resource: string): string {
  const value = optionalString(body, key, resource);
  if (value === undefined || value.length === 0)
    throw validationFailed([{ resource, field: key, code: "missing_field" }]);
  return value;
}

export function now(ctx: Pick<RequestContext, "core">): string {
  return isoNow(ctx.core.store);
}

// Applies per_page/page and builds GitHub's Link header from the URL the client used.
export function paginate<T>(ctx: RequestContext, items: T[]): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(ctx.query.get("per_page") ?? "30") || 30));
  const pageNumber = Math.max(1, Number(ctx.query.get("page") ?? "1") || 1);
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const page = items.slice((pageNumber - 1) * perPage, pageNumber * perPage);
  const link = (target: number, rel: string): string => {
    const query = new URLSearchParams(ctx.query);
    query.set("per_page", String(perPage));
    query.set("page", String(target));
    return `<${ctx.requestBase}${ctx.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (pageNumber > 1) links.push(link(Math.min(pageNumber - 1, lastPage), "prev"));
  if (pageNumber < lastPage) links.push(link(pageNumber + 1, "next"), link(lastPage, "last"));
  if (pageNumber > 1) links.push(link(1, "first"));
  return { page, headers: links.length > 0 ? { link: links.join(", ") } : {} };
}

export function paged<T>(ctx: RequestContext, items: T[], render: (item: T) => unknown): RouteResult {
  const { page, headers } = paginate(ctx, items);
  return { status: 200, body: page.map(render), headers };
}

export async function pagedAsync<T>(
  ctx: RequestContext,
  items: T[],
  render: (item: T) => Promise<unknown>,
): Promise<RouteResult> {
  const { page, headers } = paginate(ctx, items);
  return { status: 200, body: await Promise.all(page.map(render)), headers };
}

export function sinceFilter(ctx: RequestContext): (updatedAt: string) => boolean {
  const since = ctx.query.get("since");
  if (!since) return () => true;
  const threshold = Date.parse(since);
  if (Number.isNaN(threshold)) {
    throw validationFailed([{ resource: "Search", field: "since", code: "invalid" }]);
  }
  return (updatedAt) => Date.parse(updatedAt) >= threshold;
}

// Webhook payload envelope: repository, sender, installation; organization is omitted for user-owned repositories.
export function emitRepoEvent(
  ctx: Pick<RequestContext, "core" | "actor">,
  repo: Repo,
  event: string,
  payload: Record<string, unknown>,
): void {
  ctx.core.emit(event, payload, { repo, sender: actorUser(ctx) });
}

export function envelope(
  ctx: Pick<RequestContext, "core">,
  repo: Repo | null,
  sender: User,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...payload };
  if (repo) result.repository = repoJson(ctx.core, repo);
  result.sender = userJson(ctx.core, sender.login);
  const installation = repo ? installationFor(ctx.core.store, repo.owner) : undefined;
  if (installation) result.installation = { id: installation.id, node_id: `MDIz:${installation.id}` };
  return result;
}

export function requireIssue(ctx: RequestContext, repo: Repo, param = "issue_number"): Issue {
  const issue = repo.issues.get(intParam(ctx, param));
  if (!issue) throw notFound();
  return issue;
}
