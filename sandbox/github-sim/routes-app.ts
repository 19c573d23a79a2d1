import { mintInstallationToken } from "./app-auth.ts";
import type { RequestContext, Route, RouteResult } from "./core.ts";
import { HttpError, notFound } from "./http-error.ts";
import type { Installation } from "./model.ts";
import { bodyObject, intParam, paged, requireRepo } from "./route-helpers.ts";
import { installationJson, repoJson } from "./serialize-repo.ts";
import { withinGrant, type Access } from "./token-permissions.ts";
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
      permissions: app.permissions,
      events: app.events,
      installations_count: ctx.core.store.installations.size,
    },
  };
}

const TOKEN_DOCS = "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app";

// `permissions` narrows the token; asking for anything beyond the installation's grant is refused.
function askedPermissions(ctx: RequestContext): Record<string, Access> | undefined {
  const asked = bodyObject(ctx).permissions;
  if (asked === undefined) return undefined;
  const granted = ctx.core.store.app.permissions;
  const valid =
    typeof asked === "object" &&
    asked !== null &&
    Object.values(asked).every((level) => level === "read" || level === "write");
  if (!valid || !withinGrant(asked as Record<string, Access>, granted)) {
    throw new HttpError(422, {
      message: "The permissions requested are not granted to this installation.",
      documentation_url: TOKEN_DOCS,
      status: "422",
    });
  }
  // Every installation token can read the repository's metadata.
  return { metadata: "read", ...(asked as Record<string, Access>) };
}

function createAccessToken(ctx: RequestContext): RouteResult {
  const installation = requireInstallation(ctx);
  const record = mintInstallationToken(ctx.core.store, installation.id, askedPermissions(ctx));
  return {
    status: 201,
    body: {
      token: record.token,
      expires_at: record.expiresAt,
      permissions: record.permissions,
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
