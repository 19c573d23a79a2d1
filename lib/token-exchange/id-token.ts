/**
 * Asks the runner for the job's OIDC token, as `@actions/core`'s getIDToken
 * does and GitHub documents: GET `$ACTIONS_ID_TOKEN_REQUEST_URL&audience=<aud>`
 * with `Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN`, answered
 * `{"value": "<jwt>"}`. Written on Node's fetch because `@actions/core`'s
 * version pulls `@actions/http-client` and undici into the bundle, a fifth of
 * its size, for this one request (scripts/build.ts).
 * https://docs.github.com/en/actions/reference/security/oidc#methods-for-requesting-the-oidc-token
 *
 * The request token mints OIDC tokens for the job, and so the app's tokens, for as long as the
 * job runs: the Action takes it out of its process environment when it starts
 * (`takeIdTokenRequest`), so no process it starts afterwards inherits it, whatever environment
 * that process is given; it then lives only in the function `runnerIdToken` returns. (The
 * kernel keeps the environment the process started with in `/proc/<pid>/environ`, which no
 * sandboxed process can read.)
 */

/** Where and with what the runner hands out the job's OIDC tokens. */
export interface IdTokenRequest {
  readonly url: string;
  readonly token: string;
}

const URL_VARIABLE = "ACTIONS_ID_TOKEN_REQUEST_URL";
const TOKEN_VARIABLE = "ACTIONS_ID_TOKEN_REQUEST_TOKEN";

/** Removes the runner's OIDC request variables from `env` (the Action's `process.env`) and answers them. */
export function takeIdTokenRequest(env: Record<string, string | undefined>): IdTokenRequest | undefined {
  const url = env[URL_VARIABLE];
  const token = env[TOKEN_VARIABLE];
  delete env[URL_VARIABLE];
  delete env[TOKEN_VARIABLE];
  return url && token ? { url, token } : undefined;
}

export function runnerIdToken(
  request: IdTokenRequest | undefined,
  send: typeof fetch = fetch,
): (audience: string) => Promise<string> {
  return async (audience) => {
    if (request === undefined) {
      throw new Error(
        "The job has no OIDC token to trade with the Locus app: give the workflow `permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL is unset).",
      );
    }
    const response = await send(`${request.url}&audience=${encodeURIComponent(audience)}`, {
      headers: { authorization: `bearer ${request.token}`, accept: "application/json" },
    });
    const body = (await response.json().catch(() => ({}))) as { value?: unknown };
    if (!response.ok || typeof body.value !== "string") {
      throw new Error(`The runner did not hand out an OIDC token (${response.status}).`);
    }
    return body.value;
  };
}
