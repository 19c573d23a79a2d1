/**
 * A Google access token for one run from its GitHub OIDC token, by workload identity
 * federation: Google STS exchanges the OIDC token for a federated token, which either calls
 * Vertex AI itself or impersonates a service account through IAM Credentials
 * (https://cloud.google.com/iam/docs/workload-identity-federation-with-deployment-pipelines,
 * https://cloud.google.com/iam/docs/reference/sts/rest/v1/TopLevel/token). The OIDC token's
 * audience is the provider's full resource name, as Google's own GitHub action asks for.
 */
export interface GoogleFederationRequest {
  readonly stsUrl: string;
  readonly iamUrl: string;
  /** `projects/<number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>`. */
  readonly workloadIdentityProvider: string;
  readonly serviceAccount?: string;
  readonly subjectToken: string;
  readonly fetch?: typeof fetch;
}

const CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";

/** The audience GitHub's OIDC token must carry for this provider. */
export function googleOidcAudience(workloadIdentityProvider: string): string {
  return `https://iam.googleapis.com/${workloadIdentityProvider}`;
}

async function postJson(
  send: typeof fetch,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ ok: boolean; status: number; json: Record<string, unknown> }> {
  const response = await send(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, status: response.status, json };
}

function googleError(json: Record<string, unknown>, status: number): string {
  const error = json["error"];
  const description = json["error_description"];
  if (typeof error === "string")
    return `${error}: ${typeof description === "string" ? description : ""}`.trim();
  if (error && typeof error === "object" && "message" in error) return String(error.message);
  return `HTTP ${status}`;
}

export async function googleAccessToken(request: GoogleFederationRequest): Promise<string> {
  const send = request.fetch ?? fetch;
  const exchanged = await postJson(send, `${request.stsUrl}/v1/token`, {
    grantType: "urn:ietf:params:oauth:grant-type:token-exchange",
    audience: `//iam.googleapis.com/${request.workloadIdentityProvider}`,
    scope: CLOUD_PLATFORM,
    requestedTokenType: "urn:ietf:params:oauth:token-type:access_token",
    subjectToken: request.subjectToken,
    subjectTokenType: "urn:ietf:params:oauth:token-type:jwt",
  });
  const federated = exchanged.json["access_token"];
  if (!exchanged.ok || typeof federated !== "string") {
    throw new Error(
      `Google STS refused this run's OIDC token: ${googleError(exchanged.json, exchanged.status)}`,
    );
  }
  if (request.serviceAccount === undefined) return federated;
  const account = encodeURIComponent(request.serviceAccount);
  const impersonated = await postJson(
    send,
    `${request.iamUrl}/v1/projects/-/serviceAccounts/${account}:generateAccessToken`,
    { scope: [CLOUD_PLATFORM] },
    { authorization: `Bearer ${federated}` },
  );
  const token = impersonated.json["accessToken"];
  if (!impersonated.ok || typeof token !== "string") {
    throw new Error(
      `Google IAM refused to let this run act as ${request.serviceAccount}: ${googleError(impersonated.json, impersonated.status)}`,
    );
  }
  return token;
}
