/**
 * The `GITHUB_TOKEN` of a workflow run's job: an installation token of the
 * GitHub Actions app, acting as `github-actions[bot]`, limited to the run's
 * repository and revoked when the job ends. Its permissions are the
 * repository's default (permissive: read/write; restricted: contents and
 * packages read — the default for new repositories), replaced by the
 * workflow's `permissions:` (then the job's), where every scope not listed is
 * `none`; a called reusable workflow can only lower what its caller's job has.
 * https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
 * https://docs.github.com/actions/reference/github_token-reference#permissions-for-the-github_token
 * https://docs.github.com/actions/sharing-automations/reusing-workflows#access-and-permissions
 */
import { randomBytes } from "node:crypto";
import { parseWorkflow } from "./workflow-yaml.ts";
import { readPath } from "./git.ts";
import { ACTIONS_BOT } from "./model.ts";
import type { Repo, Store, TokenRecord } from "./model.ts";
import { ensureUser } from "./store.ts";
import type { Access, PermissionSet } from "./token-permissions.ts";

/** The repository's "Workflow permissions" settings (Settings → Actions → General). */
export interface WorkflowSettings {
  /** `read`: restricted (GitHub's default for new repositories); `write`: permissive. */
  defaultWorkflowPermissions: "read" | "write";
  /** "Allow GitHub Actions to create and approve pull requests": off by default. */
  canApprovePullRequestReviews: boolean;
}

const settings = new WeakMap<Repo, WorkflowSettings>();

export function workflowSettings(repo: Repo): WorkflowSettings {
  let found = settings.get(repo);
  if (!found) {
    found = { defaultWorkflowPermissions: "read", canApprovePullRequestReviews: false };
    settings.set(repo, found);
  }
  return found;
}

// The scopes of the `permissions:` key, named as the API names them (`pull-requests` → `pull_requests`).
// `id-token` asks the runner for an OIDC token; it is no API permission.
const SCOPES = [
  "actions",
  "attestations",
  "checks",
  "contents",
  "deployments",
  "discussions",
  "issues",
  "packages",
  "pages",
  "pull_requests",
  "repository_projects",
  "security_events",
  "statuses",
] as const;

function all(access: Access): Record<string, Access> {
  return Object.fromEntries(SCOPES.map((scope) => [scope, access]));
}

function defaults(repo: Repo): PermissionSet {
  if (workflowSettings(repo).defaultWorkflowPermissions === "write")
    return { ...all("write"), metadata: "read" };
  return { contents: "read", packages: "read", metadata: "read" };
}

/** A `permissions:` value as a permission set (`metadata: read` always); undefined when absent. */
export function parsePermissions(value: unknown): PermissionSet | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === "read-all") return { ...all("read"), metadata: "read" };
  if (value === "write-all") return { ...all("write"), metadata: "read" };
  const granted: Record<string, Access> = { metadata: "read" };
  if (typeof value !== "object") return granted;
  for (const [scope, access] of Object.entries(value as Record<string, unknown>)) {
    const name = scope.replace(/-/g, "_");
    if (name === "id_token" || !(SCOPES as readonly string[]).includes(name)) continue;
    if (access === "read" || access === "write") granted[name] = access;
  }
  return granted;
}

function lower(a: Access | undefined, b: Access | undefined): Access | undefined {
  if (a === undefined || b === undefined) return undefined;
  return a === "read" || b === "read" ? "read" : "write";
}

/** What a called workflow's job gets: its own `permissions`, never above its caller's job. */
function capped(caller: PermissionSet, own: PermissionSet | undefined): PermissionSet {
  if (!own) return caller;
  const result: Record<string, Access> = {};
  for (const [name, access] of Object.entries(own)) {
    const kept = lower(access, caller[name]);
    if (kept) result[name] = kept;
  }
  return result;
}

interface WorkflowShape {
  permissions?: unknown;
  jobs?: Record<string, { permissions?: unknown; uses?: string }>;
}

function shape(text: string): WorkflowShape {
  try {
    return (parseWorkflow(text) as WorkflowShape | null) ?? {};
  } catch {
    return {};
  }
}

/**
 * The permissions of the run's (first) job. `called` maps a reusable
 * workflow's `uses` (without `@ref`) to its text, for the workflows the
 * simulator can read.
 */
export function jobPermissions(
  repo: Repo,
  text: string,
  called: Readonly<Record<string, string>>,
): PermissionSet {
  const workflow = shape(text);
  const [job] = Object.values(workflow.jobs ?? {});
  const caller =
    parsePermissions(job?.permissions) ?? parsePermissions(workflow.permissions) ?? defaults(repo);
  const target = job?.uses === undefined ? undefined : called[job.uses.replace(/@[^@]*$/, "")];
  if (target === undefined) return caller;
  const reusable = shape(target);
  const [calledJob] = Object.values(reusable.jobs ?? {});
  return capped(caller, parsePermissions(calledJob?.permissions) ?? parsePermissions(reusable.permissions));
}

/** Mints the job's token from the workflow file as it is at the run's commit. */
export async function mintWorkflowToken(
  store: Store,
  repo: Repo,
  run: { workflowPath: string; headSha: string },
  called: Readonly<Record<string, string>>,
): Promise<TokenRecord> {
  const file = await readPath(repo.gitDir, run.headSha, run.workflowPath);
  const text = file?.type === "file" ? file.content.toString("utf8") : "";
  ensureUser(store, ACTIONS_BOT, "Bot");
  const record: TokenRecord = {
    token: `ghs_${randomBytes(18).toString("base64url")}`,
    kind: "workflow",
    login: ACTIONS_BOT,
    installationId: null,
    // It lives as long as the job: the run controller revokes it when the run completes.
    expiresAt: null,
    permissions: jobPermissions(repo, text, called),
    repository: `${repo.owner}/${repo.name}`.toLowerCase(),
  };
  store.tokens.set(record.token, record);
  return record;
}

/** Whether a token may reach `owner/name` at all: a job's token covers its own repository only. */
export function tokenCoversRepo(token: TokenRecord | null, owner: string, name: string): boolean {
  return token?.repository === undefined || token.repository === `${owner}/${name}`.toLowerCase();
}
