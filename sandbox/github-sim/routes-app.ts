import { mintInstallationToken } from "./app-auth.ts";
import type { RequestContext, Route, RouteResult } from "./core.ts";
import { notFound } from "./http-error.ts";
import type { Installation } from "./model.ts";
import { intParam, paged, requireRepo } from "./route-helpers.ts";
import { installationJson, installationPermissions, repoJson } from "./serialize-repo.ts";
import { userJson } from "./serialize-user.ts";
import { installationFor } from "./store.ts";

function requireInstallation(ctx: RequestContext): Installation {
  const installation = ctx.core.store.installations.get(intParam(ctx, "installation_id"));
  if (!installation) throw notFound();
  return installation;
}

function getApp(ctx: RequestContext): RouteResult {
  const { app } = ctx.core.store;
  return {
    status: 200,
    body: {
      id: app.id,
      slug: app.slug,
      node_id: `A_${app.id}`,
      client_id: `Iv1.sim${app.id}`,
      owner: userJson(ctx.core, app.ownerLogin),
      name: app.name,
      description: "",
      external_url: ctx.core.urls.web,
      html_url: `${ctx.core.urls.web}/apps/${app.slug}`,
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      permissions: installationPermissions,
      events: ["issues", "issue_comment", "milestone", "pull_request", "pull_request_review", "workflow_run"],
      installations_count: ctx.core.store.installations.size,
    },
  };
}

function createAccessToken(ctx: RequestContext): RouteResult {
  const installation = requireInstallation(ctx);
  const record = mintInstallationToken(ctx.core.store, installation.id);
  return {
    status: 201,
    body: {
      token: record.token,
      expires_at: record.expiresAt,
      permissions: installationPermissions,
      repository_selection: "all",
    },
  };
}

function installationRepositories(ctx: RequestContext): RouteResult {
  const installationId = ctx.actor?.token?.installationId;
  const installation =
    installationId === null || installationId === undefined
      ? undefined
      : ctx.core.store.installations.get(installationId);
  if (!installation) throw notFound();
  const repos = [...ctx.core.store.repos.values()].filter(
    (repo) => repo.owner.toLowerCase() === installation.account.toLowerCase(),
  );
  const result = paged(ctx, repos, (repo) => repoJson(ctx.core, repo));
  return {
    ...result,
    body: { total_count: repos.length, repository_selection: "all", repositories: result.body },
  };
}

export const appRoutes: Route[] = [
  { method: "GET", template: "/app", auth: "jwt", handler: getApp },
  {
    method: "GET",
    template: "/app/installations",
    auth: "jwt",
    handler: (ctx) =>
      paged(ctx, [...ctx.core.store.installations.values()], (installation) =>
        installationJson(ctx.core, installation),
      ),
  },
  {
    method: "GET",
    template: "/app/installations/{installation_id}",
    auth: "jwt",
    handler: (ctx) => ({ status: 200, body: installationJson(ctx.core, requireInstallation(ctx)) }),
  },
  {
    method: "POST",
    template: "/app/installations/{installation_id}/access_tokens",
    auth: "jwt",
    handler: createAccessToken,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/installation",
    auth: "jwt",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      const installation = installationFor(ctx.core.store, repo.owner);
      if (!installation) throw notFound();
      return { status: 200, body: installationJson(ctx.core, installation) };
    },
  },
  { method: "GET", template: "/installation/repositories", auth: "token", handler: installationRepositories },
];
