/**
 * Builds lib's AppContext from a Probot event context: one gateway for the
 * event's repository, the repository's config, the delivery id, and who Locus
 * is. The config file is read through the gateway (counted, retried, with
 * line numbers kept for error messages), not with context.config.
 */
import { createHash } from "node:crypto";
import type { Context } from "probot";
import type { AppContext } from "../lib/app/app-context.ts";
import type { PermissionCache } from "../lib/trust/permission-cache.ts";
import type { ReplyLimits } from "../lib/app/reply-limits.ts";
import { loadConfig, type ConfigError } from "../lib/config/index.ts";
import { markerKey } from "../lib/markers.ts";
import {
  createGateway,
  type EtagCache,
  type GitHubGateway,
  type Log,
  type Permission,
} from "../lib/github/index.ts";

export const CONFIG_PATH = ".github/locus.yml";

export interface LocusServices {
  readonly selfLogins: () => Promise<readonly string[]>;
  readonly permissions: PermissionCache<Permission>;
  readonly now: () => Date;
  readonly log: Log;
  /** Whether the delivery sweeper asked GitHub to send the event with this GUID again. */
  readonly redeliveryRequested: (guid: string) => boolean;
  /** The installation's conditional-request cache, shared by its events' gateways. */
  readonly etagsFor: (installation: number | undefined) => EtagCache;
  readonly replyLimits: ReplyLimits;
}

export type ContextResult =
  { ok: true; ctx: AppContext } | { ok: false; gateway: GitHubGateway; errors: readonly ConfigError[] };

interface RepositoryPayload {
  repository?: { name: string; owner: { login: string }; default_branch?: string };
  installation?: { id: number };
}

export async function buildContext(context: Context, services: LocusServices): Promise<ContextResult> {
  const { repository, installation } = context.payload as RepositoryPayload;
  if (!repository) throw new Error(`event ${context.name} has no repository`);
  const repo = { owner: repository.owner.login, repo: repository.name };
  const log = services.log;
  const selfLogins = await services.selfLogins();
  const gateway = createGateway({
    octokit: context.octokit,
    repo,
    log,
    etags: services.etagsFor(installation?.id),
    // With only GITHUB_TOKEN, the Action writes status comments as the Actions bot (selfLogins has it).
    ownLogins: selfLogins,
  });
  const loaded = loadConfig(await gateway.getFileContent(CONFIG_PATH));
  if (!loaded.ok) return { ok: false, gateway, errors: loaded.errors };
  for (const warning of loaded.warnings) log.debug(`${repo.owner}/${repo.repo} ${CONFIG_PATH}: ${warning}`);
  const ctx: AppContext = {
    gateway,
    config: loaded.config,
    delivery: context.id,
    bodyKey: bodyKeyOf(context.payload),
    redeliveryRequested: services.redeliveryRequested,
    // Workflows are dispatched on the default branch, where the workflow file lives.
    defaultBranch: repository.default_branch ?? (await gateway.getDefaultBranch()),
    log,
    selfLogins,
    permissionOf: (login) =>
      services.permissions.get(`${repo.owner}/${repo.repo}:${login}`, () =>
        gateway.getCollaboratorPermission(login),
      ),
    now: services.now,
    replyLimits: services.replyLimits,
  };
  return { ok: true, ctx };
}

/**
 * The payload is what the signature covers; parsed and serialised again it is
 * the same text for the same signed body (JSON.parse keeps key order).
 */
export function bodyKeyOf(payload: unknown): string {
  return `body-${createHash("sha256").update(JSON.stringify(payload)).digest("hex").slice(0, 32)}`;
}

/** One comment per distinct problem: the sticky upsert writes nothing when the errors are unchanged. */
export async function reportConfigErrors(
  gateway: GitHubGateway,
  issue: number,
  errors: readonly ConfigError[],
): Promise<void> {
  const lines = errors.map((error) => `- ${error.message}`);
  const body = [
    `Locus did nothing because \`${CONFIG_PATH}\` is invalid:`,
    "",
    ...lines,
    "",
    "Fix the file on the default branch and try again.",
  ].join("\n");
  await gateway.upsertComment(issue, markerKey("config-error"), body);
}
