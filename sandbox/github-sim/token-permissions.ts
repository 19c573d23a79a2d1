/**
 * What an installation token may do. GitHub checks every REST route and
 * GraphQL mutation against the token's permissions (the app's grant, or the
 * narrower set asked for when the token was created) and answers 403
 * "Resource not accessible by integration", naming what it needed in
 * `x-accepted-github-permissions`. Which permission a REST route needs comes
 * from GitHub's published data (permission-table.ts); GraphQL's are here.
 * https://docs.github.com/rest/authentication/permissions-required-for-github-apps
 * https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app
 */
import { HttpError } from "./http-error.ts";
import type { TokenRecord } from "./model.ts";

export type Access = "read" | "write";
export type PermissionSet = Readonly<Record<string, Access>>;

/** One of these permissions suffices (GitHub accepts issues or pull_requests on a PR's comments). */
export type Requirement = ReadonlyArray<{ readonly name: string; readonly access: Access }>;

const DOCS = "https://docs.github.com/rest/authentication/permissions-required-for-github-apps";

function covers(held: Access | undefined, needed: Access): boolean {
  return held === "write" || (held === "read" && needed === "read");
}

/** Whether `asked` stays within `granted`: a token can be narrowed, never widened. */
export function withinGrant(asked: PermissionSet, granted: PermissionSet): boolean {
  return Object.entries(asked).every(([name, access]) => covers(granted[name], access));
}

function one(name: string, access: Access): Requirement {
  return [{ name, access }];
}

/** GraphQL mutations Locus sends, and what GitHub checks for each. */
const MUTATIONS: Readonly<Record<string, Requirement>> = {
  addComment: [
    { name: "issues", access: "write" },
    { name: "pull_requests", access: "write" },
  ],
  addPullRequestReviewThreadReply: one("pull_requests", "write"),
  // As its REST twin, POST /repos/{owner}/{repo}/labels.
  createLabel: [
    { name: "issues", access: "write" },
    { name: "pull_requests", access: "write" },
  ],
  resolveReviewThread: one("pull_requests", "write"),
  // As its REST twin, PUT /repos/{owner}/{repo}/contents/{path}.
  createCommitOnBranch: one("contents", "write"),
  updateRefs: one("contents", "write"),
  updateIssue: one("issues", "write"),
  updatePullRequest: one("pull_requests", "write"),
  updateIssueComment: [
    { name: "issues", access: "write" },
    { name: "pull_requests", access: "write" },
  ],
};

export function mutationRequirement(field: string): Requirement | null {
  return MUTATIONS[field] ?? null;
}

/**
 * What `resource(url:)` needs to resolve a workflow run: the run is an
 * Actions resource, which an installation token reads with `actions: read`
 * as its REST twin (GET /repos/{owner}/{repo}/actions/runs/{run_id}) does.
 */
export const WORKFLOW_RUN_READ: Requirement = one("actions", "read");

export function allows(token: TokenRecord | null, needed: Requirement): boolean {
  if (!token?.permissions) return true; // a person's token: only the repository role applies
  const held = token.permissions;
  return needed.some(({ name, access }) => covers(held[name], access));
}

export function acceptedHeader(needed: Requirement): string {
  return needed.map(({ name, access }) => `${name}=${access}`).join("; ");
}

export function notAccessible(needed: Requirement): HttpError {
  return new HttpError(
    403,
    { message: "Resource not accessible by integration", documentation_url: DOCS, status: "403" },
    needed.length > 0 ? { "x-accepted-github-permissions": acceptedHeader(needed) } : {},
  );
}
