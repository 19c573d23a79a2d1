/**
 * The token exchange's view of GitHub, through Probot's app and installation
 * clients: where the app is installed, the repository's facts and config, the
 * run asking, Locus's status record, and minting the narrowed token.
 */
import type { Probot } from "probot";
import { loadConfig } from "../lib/config/index.ts";
import { statusOf } from "../lib/github/errors.ts";
import { createGateway, type Log } from "../lib/github/index.ts";
import { readStatusState, STATUS_MARKER } from "../lib/status/status-comment.ts";
import type { ExchangeGitHub } from "../lib/token-exchange/exchange.ts";
import { refuse } from "../lib/token-exchange/refusal.ts";
import { appIdentityOf } from "./app-identity.ts";
import { CONFIG_PATH } from "./locus-context.ts";

async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

export function probotExchangeGitHub(probot: Probot, log: Log): ExchangeGitHub {
  const self = appIdentityOf(probot);
  return {
    async installationOf(owner, repo) {
      const app = await probot.auth();
      const found = await orNull(() =>
        app.request("GET /repos/{owner}/{repo}/installation", { owner, repo }),
      );
      return found?.data.id ?? null;
    },
    bot: (installation) => self.identity(installation),
    async repository(installation, owner, repo) {
      const octokit = await probot.auth(installation);
      const { data } = await octokit.request("GET /repos/{owner}/{repo}", { owner, repo });
      // Reading the config file needs no Locus record.
      const gateway = createGateway({ octokit, repo: { owner, repo }, log, ownLogins: [] });
      const loaded = loadConfig(await gateway.getFileContent(CONFIG_PATH));
      if (!loaded.ok) refuse("wrong-workflow", `${CONFIG_PATH} is invalid, so the Locus workflow is unknown`);
      return { id: String(data.id), defaultBranch: data.default_branch, workflow: loaded.config.workflow };
    },
    async run(installation, owner, repo, runId) {
      const octokit = await probot.auth(installation);
      const found = await orNull(() =>
        octokit.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}", { owner, repo, run_id: runId }),
      );
      if (!found) return null;
      const run = found.data;
      return {
        id: Number(run.id),
        path: run.path,
        status: run.status ?? "",
        displayTitle: run.display_title,
        actor: run.actor?.login ?? "",
        triggeringActor: run.triggering_actor?.login ?? run.actor?.login ?? "",
      };
    },
    async deliveryRecord(installation, owner, repo, issue) {
      const octokit = await probot.auth(installation);
      // Only Locus's own status comment: one anyone else posted must neither grant nor block a run.
      const gateway = createGateway({
        octokit,
        repo: { owner, repo },
        log,
        ownLogins: [await self.login()],
      });
      const comment = await orNull(() => gateway.findCommentByMarker(issue, STATUS_MARKER));
      if (!comment) return { author: null, deliveries: [] };
      return { author: comment.author, deliveries: readStatusState(comment.body).deliveries };
    },
    async mint(installation, repositoryId, permissions) {
      const app = await probot.auth();
      const { data } = await app.request("POST /app/installations/{installation_id}/access_tokens", {
        installation_id: installation,
        repository_ids: [repositoryId],
        permissions,
      });
      return {
        token: data.token,
        expiresAt: data.expires_at,
        permissions: { ...data.permissions },
      };
    },
  };
}
