/**
 * The permission each REST route needs, read from GitHub's own published
 * data: the `server-to-server-permissions.json` files of github/docs,
 * vendored under schema/github-permissions/ (see its README for the source
 * commit, and scripts/github-permissions.ts to regenerate them). GitHub lists
 * a route under every permission that lets an installation token call it;
 * one of them suffices ("at least one of the following permission sets").
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Access, Requirement } from "./token-permissions.ts";

/** One entry of GitHub's data, as vendored (the fields the simulator reads). */
export interface PublishedEntry {
  readonly slug: string;
  readonly verb: string;
  readonly requestPath: string;
  readonly access: Access;
  readonly "additional-permissions": boolean;
}

/** The vendored file: permission name → its title and the routes it opens. */
export type PublishedPermissions = Readonly<
  Record<string, { readonly title: string; readonly permissions: readonly PublishedEntry[] }>
>;

/** The GitHub versions whose data is vendored: github.com, and the newest GitHub Enterprise Server. */
export const PERMISSION_VERSIONS = ["fpt-2022-11-28", "ghes-3.21-2022-11-28"] as const;
export type PermissionVersion = (typeof PERMISSION_VERSIONS)[number];

export type RoutePermission =
  | { readonly kind: "listed"; readonly needed: Requirement }
  /** GitHub documents the route as callable by any installation token, with no permission. */
  | { readonly kind: "free" }
  /** Not in GitHub's data: a route an installation token cannot be shown to reach. */
  | { readonly kind: "unlisted" };

/**
 * Routes GitHub's pages say work with an installation token and need no
 * permission, so its permission data has no entry for them.
 * https://docs.github.com/en/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user
 * https://docs.github.com/en/rest/apps/installations#list-repositories-accessible-to-the-app-installation
 * https://docs.github.com/en/rest/users/users#get-a-user
 */
const FREE_ROUTES = new Set(["GET /rate_limit", "GET /installation/repositories", "GET /users/{username}"]);

/**
 * The simulator serves GitHub's `/contents/{path}` also at `/contents` and
 * `/contents/` (an empty path, the root directory), which GitHub's data
 * lists once.
 */
function publishedTemplate(template: string): string {
  return template.replace(/^(\/repos\/\{owner\}\/\{repo\}\/contents)\/?$/, "$1/{path}");
}

function dataPath(version: PermissionVersion): string {
  return fileURLToPath(new URL(`../../schema/github-permissions/${version}.json`, import.meta.url));
}

/** Route key → the permissions that open it, from one version's data. */
export function permissionTable(data: PublishedPermissions): Map<string, Requirement> {
  const table = new Map<string, { name: string; access: Access }[]>();
  for (const [name, { permissions }] of Object.entries(data)) {
    for (const entry of permissions) {
      const key = `${entry.verb.toUpperCase()} ${entry.requestPath}`;
      const needed = table.get(key) ?? [];
      if (!needed.some((n) => n.name === name)) needed.push({ name, access: entry.access });
      table.set(key, needed);
    }
  }
  return table;
}

const tables = new Map<PermissionVersion, Map<string, Requirement>>();

export function loadPermissionTable(version: PermissionVersion): Map<string, Requirement> {
  let table = tables.get(version);
  if (!table) {
    table = permissionTable(JSON.parse(readFileSync(dataPath(version), "utf8")) as PublishedPermissions);
    tables.set(version, table);
  }
  return table;
}

/** What GitHub's data says an installation token needs to call `method template`. */
export function routePermission(
  method: string,
  template: string,
  version: PermissionVersion = "fpt-2022-11-28",
): RoutePermission {
  const key = `${method.toUpperCase()} ${publishedTemplate(template)}`;
  if (FREE_ROUTES.has(key)) return { kind: "free" };
  const needed = loadPermissionTable(version).get(key);
  return needed ? { kind: "listed", needed } : { kind: "unlisted" };
}
