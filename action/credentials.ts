/**
 * The Action's GitHub credentials. With `app-url` set, every token comes from
 * the Locus app's token exchange (the runner's OIDC token traded per phase,
 * lib/token-exchange): the agent-phase token for reads, comments and labels,
 * the publish-phase token only for pushes and pull-request writes, and the
 * workflow's own `github-token` only for workflow runs (the stale sweep).
 * Without it, `github-token` does everything, as before.
 */
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
}

export function actionCredentials(options: {
  githubToken: string;
  appUrl: string;
  log: Log;
  /** Told of every token the exchange hands out (and of each OIDC token), to mask it. */
  onToken: (token: string) => void;
  /** The runner's OIDC request, taken out of the environment when the Action started. */
  idTokenRequest: IdTokenRequest | undefined;
}): ActionCredentials {
  const { githubToken, appUrl } = options;
  if (!appUrl) return { api: githubToken, gitAuth: (url) => pushAuthFor(url, githubToken) };
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
  };
}
