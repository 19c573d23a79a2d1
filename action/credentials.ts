/**
 * The Action's GitHub credentials. With `app-url` set, every token comes from
 * the Locus app's token exchange (the runner's OIDC token traded per phase,
 * lib/token-exchange): the agent-phase token for reads, comments and labels,
 * the publish-phase token only for pushes and pull-request writes, and the
 * workflow's own `github-token` only for workflow runs (the stale sweep).
 * Without it, `github-token` does everything, as before.
 *
 * Who Locus is in the run comes with its credentials: the app's bot as the
 * exchange answers it; with an installation token of the app (the key
 * fallback), `<app-slug>[bot]`; with the workflow's own token,
 * `github-actions[bot]`. The bot user's id, for its noreply commit address,
 * is asked of GitHub where the exchange did not say it.
 */
import { ACTIONS_BOT, botLoginOf, type LocusIdentity } from "../lib/github/locus-identity.ts";
import type { TokenRequest } from "../lib/github/action-octokit.ts";
import type { Log } from "../lib/github/index.ts";
import type { RemoteAccess } from "../lib/git/git-client.ts";
import { pushAuthFor, type PushAuth } from "../lib/git/push-auth.ts";
import { createExchangeClient } from "../lib/token-exchange/exchange-client.ts";
import { runnerIdToken, type IdTokenRequest } from "../lib/token-exchange/id-token.ts";
import { credentialFor } from "../lib/token-exchange/request-credential.ts";

export interface ActionCredentials {
  readonly api: string | ((request: TokenRequest) => Promise<string>);
  gitAuth(remoteUrl: string): PushAuth | ((access: RemoteAccess) => Promise<PushAuth>);
  /** Locus's bot in this run; `userId` reads a login's id (`GET /users/{login}`). */
  identity(userId: (login: string) => Promise<number>): Promise<LocusIdentity>;
}

export function actionCredentials(options: {
  githubToken: string;
  appUrl: string;
  /** The app's slug when `githubToken` is the app's installation token; empty for GITHUB_TOKEN. */
  appSlug: string;
  log: Log;
  /** Told of every token the exchange hands out (and of each OIDC token), to mask it. */
  onToken: (token: string) => void;
  /** The runner's OIDC request, taken out of the environment when the Action started. */
  idTokenRequest: IdTokenRequest | undefined;
}): ActionCredentials {
  const { githubToken, appUrl } = options;
  if (!appUrl) {
    const login = options.appSlug ? botLoginOf(options.appSlug) : ACTIONS_BOT;
    return {
      api: githubToken,
      gitAuth: (url) => pushAuthFor(url, githubToken),
      identity: async (userId) => ({ login, id: await userId(login) }),
    };
  }
  const idToken = runnerIdToken(options.idTokenRequest);
  const tokens = createExchangeClient({
    appUrl,
    idToken: async (audience) => {
      const token = await idToken(audience);
      options.onToken(token);
      return token;
    },
    now: () => new Date(),
    log: options.log,
    onToken: options.onToken,
  });
  return {
    api: (request) => {
      const credential = credentialFor(request);
      return credential === "workflow" ? Promise.resolve(githubToken) : tokens.token(credential);
    },
    gitAuth: (url) => async (access) =>
      pushAuthFor(url, await tokens.token(access === "write" ? "publish" : "agent")),
    identity: () => tokens.bot(),
  };
}
