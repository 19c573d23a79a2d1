/**
 * Asks the runner for the job's OIDC token, as `@actions/core`'s getIDToken
 * does and GitHub documents: GET `$ACTIONS_ID_TOKEN_REQUEST_URL&audience=<aud>`
 * with `Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN`, answered
 * `{"value": "<jwt>"}`. Written on Node's fetch because `@actions/core`'s
 * version pulls `@actions/http-client` and undici into the bundle, a fifth of
 * its size, for this one request (scripts/build.ts).
 * https://docs.github.com/en/actions/reference/security/oidc#methods-for-requesting-the-oidc-token
 */
export function runnerIdToken(
  env: Readonly<Record<string, string | undefined>>,
  send: typeof fetch = fetch,
): (audience: string) => Promise<string> {
  return async (audience) => {
    const url = env["ACTIONS_ID_TOKEN_REQUEST_URL"];
    const token = env["ACTIONS_ID_TOKEN_REQUEST_TOKEN"];
    if (!url || !token) {
      throw new Error(
        "The job has no OIDC token to trade with the Locus app: give the workflow `permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL is unset).",
      );
    }
    const response = await send(`${url}&audience=${encodeURIComponent(audience)}`, {
      headers: { authorization: `bearer ${token}`, accept: "application/json" },
    });
    const body = (await response.json().catch(() => ({}))) as { value?: unknown };
    if (!response.ok || typeof body.value !== "string") {
      throw new Error(`The runner did not hand out an OIDC token (${response.status}).`);
    }
    return body.value;
  };
}
