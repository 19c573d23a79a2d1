import { onBranchDeleted } from "./retarget.ts";
import type { RequestContext, Route, RouteResult } from "./core.ts";
import {
  branchSha,
  commitInfo,
  deleteRef,
  isAncestor,
  listBranches,
  readPath,
  resolveCommit,
  updateRef,
} from "./git.ts";
import type { PathContent } from "./git.ts";
import { HttpError, notFound, validationFailed } from "./http-error.ts";
import type { Permission } from "./model.ts";
import { rateLimitHeaders } from "./rate-limit.ts";
import {
  actorUser,
  bodyObject,
  paged,
  requirePermission,
  requireRepo,
  requiredString,
} from "./route-helpers.ts";
import { commitJson } from "./serialize-pull.ts";
import { repoJson } from "./serialize-repo.ts";
import { userJson } from "./serialize-user.ts";
import { findUser, permissionOf } from "./store.ts";

function legacyPermission(role: Permission): string {
  if (role === "maintain") return "write";
  if (role === "triage") return "read";
  return role;
}

function getRepo(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const role = permissionOf(ctx.core.store, repo, actorUser(ctx).login);
  const permissions = {
    admin: role === "admin",
    maintain: role === "admin" || role === "maintain",
    push: ["admin", "maintain", "write"].includes(role),
    triage: role !== "read" && role !== "none",
    pull: role !== "none",
  };
  return { status: 200, body: { ...repoJson(ctx.core, repo), permissions, ...mergeSettings } };
}

// The merge settings GitHub's repository answer carries
// (https://docs.github.com/rest/repos/repos#get-a-repository), as the simulator behaves: every merge
// method works, no auto-merge, and a merged branch is kept.
const mergeSettings = {
  allow_squash_merge: true,
  allow_merge_commit: true,
  allow_rebase_merge: true,
  allow_auto_merge: false,
  delete_branch_on_merge: false,
  allow_update_branch: false,
  use_squash_pr_title_as_default: false,
};

function collaboratorPermission(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const login = ctx.params.username ?? "";
  const user = findUser(ctx.core.store, login);
  if (!user) throw notFound();
  const role = permissionOf(ctx.core.store, repo, user.login);
  return {
    status: 200,
    body: {
      permission: legacyPermission(role),
      role_name: role,
      user: {
        ...userJson(ctx.core, user.login),
        permissions: {
          admin: role === "admin",
          maintain: role === "maintain" || role === "admin",
          push: legacyPermission(role) === "write" || role === "admin",
          triage: role !== "read" && role !== "none",
          pull: role !== "none",
        },
        role_name: role,
      },
    },
  };
}

function contentJson(ctx: RequestContext, content: PathContent, ref: string): unknown {
  const repo = requireRepo(ctx);
  const api = `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const web = `${ctx.core.urls.web}/${repo.owner}/${repo.name}`;
  const entry = (
    path: string,
    name: string,
    type: string,
    sha: string,
    size: number,
  ): Record<string, unknown> => {
    const url = `${api}/contents/${path}?ref=${ref}`;
    const html = `${web}/${type === "dir" ? "tree" : "blob"}/${ref}/${path}`;
    const git = `${api}/git/${type === "dir" ? "trees" : "blobs"}/${sha}`;
    return {
      type,
      size,
      name,
      path,
      sha,
      url,
      git_url: git,
      html_url: html,
      download_url: type === "file" ? `${web}/raw/${ref}/${path}` : null,
      _links: { self: url, git, html },
    };
  };
  if (content.type === "dir") {
    return content.entries.map((item) => entry(item.path, item.name, item.type, item.sha, item.size));
  }
  return {
    ...entry(content.path, content.name, "file", content.sha, content.size),
    content: content.content.toString("base64").replace(/(.{60})/g, "$1\n"),
    encoding: "base64",
  };
}

async function getContent(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const ref = ctx.query.get("ref") ?? repo.defaultBranch;
  const commit = await resolveCommit(repo.gitDir, ref);
  if (!commit) {
    throw new HttpError(404, {
      message: `No commit found for the ref ${ref}`,
      documentation_url: "https://docs.github.com/rest/repos/contents#get-repository-content",
      status: "404",
    });
  }
  const content = await readPath(repo.gitDir, commit, ctx.params.path ?? "");
  if (!content) throw notFound();
  const accept = String(ctx.headers.accept ?? "");
  // Octokit asks for `application/vnd.github.v3.raw`; GitHub accepts the media type with or without the version.
  if (content.type === "file" && /application\/vnd\.github(\.v3)?\.raw/.test(accept)) {
    return {
      status: 200,
      text: content.content.toString("utf8"),
      contentType: "application/vnd.github.raw; charset=utf-8",
    };
  }
  return { status: 200, body: contentJson(ctx, content, ref) };
}

async function branchJson(ctx: RequestContext, name: string, sha: string): Promise<Record<string, unknown>> {
  const repo = requireRepo(ctx);
  const info = await commitInfo(repo.gitDir, sha);
  if (!info) throw notFound();
  const api = `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}`;
  return {
    name,
    commit: commitJson(ctx.core, repo, info),
    _links: {
      self: `${api}/branches/${name}`,
      html: `${ctx.core.urls.web}/${repo.owner}/${repo.name}/tree/${name}`,
    },
    protected: false,
    protection: {
      enabled: false,
      required_status_checks: { enforcement_level: "off", contexts: [], checks: [] },
    },
    protection_url: `${api}/branches/${name}/protection`,
  };
}

async function getBranch(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const name = ctx.params.branch ?? "";
  const sha = await branchSha(repo.gitDir, name);
  if (!sha) {
    throw new HttpError(404, {
      message: "Branch not found",
      documentation_url: "https://docs.github.com/rest/branches/branches#get-a-branch",
      status: "404",
    });
  }
  return { status: 200, body: await branchJson(ctx, name, sha) };
}

async function listBranchesRoute(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const api = `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}`;
  return paged(ctx, await listBranches(repo.gitDir), (branch) => ({
    name: branch.name,
    commit: { sha: branch.sha, url: `${api}/commits/${branch.sha}` },
    protected: false,
  }));
}

function refJson(ctx: RequestContext, ref: string, sha: string): Record<string, unknown> {
  const repo = requireRepo(ctx);
  const api = `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}`;
  return {
    ref,
    node_id: `REF_${Buffer.from(ref).toString("base64url")}`,
    url: `${api}/git/${ref}`,
    object: { type: "commit", sha, url: `${api}/git/commits/${sha}` },
  };
}

function refNotFound(): HttpError {
  return new HttpError(404, {
    message: "Not Found",
    documentation_url: "https://docs.github.com/rest/git/refs#get-a-reference",
    status: "404",
  });
}

// Refs are read from the bare repository on every request, so branches pushed with real git show up at once.
async function getRef(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const ref = `refs/${ctx.params.ref ?? ""}`;
  const sha = await resolveCommit(repo.gitDir, ref);
  if (!sha || (!ref.startsWith("refs/heads/") && !ref.startsWith("refs/tags/"))) throw refNotFound();
  return { status: 200, body: refJson(ctx, ref, sha) };
}

async function createRef(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const body = bodyObject(ctx);
  const ref = requiredString(body, "ref", "Reference");
  const sha = requiredString(body, "sha", "Reference");
  if (!/^refs\/.+\/.+/.test(ref))
    throw validationFailed([], "Reference name must start with 'refs/' and have at least two slashes.");
  if (await resolveCommit(repo.gitDir, ref)) throw validationFailed([], "Reference already exists");
  const commit = await resolveCommit(repo.gitDir, sha);
  if (!commit) throw validationFailed([], "Object does not exist");
  await updateRef(repo.gitDir, ref, commit);
  return {
    status: 201,
    body: refJson(ctx, ref, commit),
    headers: { location: `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}/git/${ref}` },
  };
}

async function updateRefRoute(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const body = bodyObject(ctx);
  const ref = `refs/${ctx.params.ref ?? ""}`;
  const current = await resolveCommit(repo.gitDir, ref);
  if (!current) throw validationFailed([], "Reference does not exist");
  const sha = await resolveCommit(repo.gitDir, requiredString(body, "sha", "Reference"));
  if (!sha) throw validationFailed([], "Object does not exist");
  if (body.force !== true && !(await isAncestor(repo.gitDir, current, sha)))
    throw validationFailed([], "Update is not a fast forward");
  await updateRef(repo.gitDir, ref, sha);
  return { status: 200, body: refJson(ctx, ref, sha) };
}

async function deleteRefRoute(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const ref = `refs/${ctx.params.ref ?? ""}`;
  const sha = await resolveCommit(repo.gitDir, ref);
  if (!sha) throw validationFailed([], "Reference does not exist");
  await deleteRef(repo.gitDir, ref);
  if (ref.startsWith("refs/heads/")) await onBranchDeleted(ctx, repo, ref.slice("refs/heads/".length), sha);
  return { status: 204 };
}

async function getCommit(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const info = await commitInfo(repo.gitDir, ctx.params.ref ?? "");
  if (!info)
    throw new HttpError(422, {
      message: `No commit found for SHA: ${ctx.params.ref ?? ""}`,
      documentation_url: "https://docs.github.com/rest/commits/commits#get-a-commit",
      status: "422",
    });
  return { status: 200, body: commitJson(ctx.core, repo, info) };
}

function rateLimitRoute(ctx: RequestContext): RouteResult {
  const key = ctx.actor?.token?.token ?? ctx.actor?.user.login ?? "anonymous";
  const core = ctx.core.rateLimit(key, "core");
  const graphql = ctx.core.rateLimit(key, "graphql");
  const shape = (bucket: typeof core): Record<string, number> => ({
    limit: bucket.limit,
    used: bucket.used,
    remaining: bucket.limit - bucket.used,
    reset: bucket.reset,
  });
  const search = { limit: 30, used: 0, remaining: 30, reset: core.reset };
  return {
    status: 200,
    body: { resources: { core: shape(core), graphql: shape(graphql), search }, rate: shape(core) },
    headers: rateLimitHeaders(core, "core"),
  };
}

function authenticatedUser(ctx: RequestContext): RouteResult {
  const user = actorUser(ctx);
  if (user.type === "Bot")
    throw new HttpError(403, {
      message: "Resource not accessible by integration",
      documentation_url: "https://docs.github.com/rest/users/users#get-the-authenticated-user",
      status: "403",
    });
  return {
    status: 200,
    body: {
      ...userJson(ctx.core, user.login),
      name: user.name,
      company: null,
      blog: "",
      location: null,
      email: user.email,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: user.createdAt,
      updated_at: user.createdAt,
    },
  };
}

function getUser(ctx: RequestContext): RouteResult {
  const user = findUser(ctx.core.store, ctx.params.username ?? "");
  if (!user) throw notFound();
  return {
    status: 200,
    body: {
      ...userJson(ctx.core, user.login),
      name: user.name,
      company: null,
      blog: "",
      location: null,
      email: user.email,
      hireable: null,
      bio: null,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: user.createdAt,
      updated_at: user.createdAt,
    },
  };
}

export const repoRoutes: Route[] = [
  { method: "GET", template: "/repos/{owner}/{repo}", auth: "token", handler: getRepo },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/collaborators/{username}/permission",
    auth: "token",
    handler: collaboratorPermission,
  },
  { method: "GET", template: "/repos/{owner}/{repo}/contents", auth: "token", handler: getContent },
  // GitHub answers `contents/` (an empty path, as Octokit sends it) with the root listing, like `contents`
  // (https://docs.github.com/rest/repos/contents#get-repository-content).
  { method: "GET", template: "/repos/{owner}/{repo}/contents/", auth: "token", handler: getContent },
  { method: "GET", template: "/repos/{owner}/{repo}/contents/{path}", auth: "token", handler: getContent },
  { method: "GET", template: "/repos/{owner}/{repo}/branches", auth: "token", handler: listBranchesRoute },
  { method: "GET", template: "/repos/{owner}/{repo}/branches/{branch}", auth: "token", handler: getBranch },
  { method: "GET", template: "/repos/{owner}/{repo}/commits/{ref}", auth: "token", handler: getCommit },
  { method: "GET", template: "/repos/{owner}/{repo}/git/ref/{ref}", auth: "token", handler: getRef },
  { method: "POST", template: "/repos/{owner}/{repo}/git/refs", auth: "token", handler: createRef },
  {
    method: "PATCH",
    template: "/repos/{owner}/{repo}/git/refs/{ref}",
    auth: "token",
    handler: updateRefRoute,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/git/refs/{ref}",
    auth: "token",
    handler: deleteRefRoute,
  },
  { method: "GET", template: "/rate_limit", auth: "token", handler: rateLimitRoute },
  { method: "GET", template: "/user", auth: "token", handler: authenticatedUser },
  { method: "GET", template: "/users/{username}", auth: "token", handler: getUser },
];
