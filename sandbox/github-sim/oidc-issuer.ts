/**
 * GitHub Actions' OpenID Connect issuer, played on the simulator's own port
 * under `/_services/token` (where GitHub Enterprise Server serves it; github.com
 * uses https://token.actions.githubusercontent.com). A running job asks for an
 * ID token at ACTIONS_ID_TOKEN_REQUEST_URL with ACTIONS_ID_TOKEN_REQUEST_TOKEN,
 * and gets a JWT signed with the issuer's key, carrying GitHub's claim set for
 * its run; relying parties verify it against the keys the issuer publishes.
 * https://docs.github.com/en/actions/reference/security/oidc
 * https://docs.github.com/en/actions/concepts/security/openid-connect
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import type { Repo, Store, WorkflowRun } from "./model.ts";
import { findUser } from "./store.ts";

export const OIDC_PATH = "/_services/token";
/** GitHub's ID tokens are valid for about five minutes (docs above). */
const LIFETIME_SECONDS = 300;

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

export interface OidcIssuer {
  /** The `iss` of every token, and the base of the discovery document. */
  readonly issuer: string;
  /** What a runner puts in ACTIONS_ID_TOKEN_REQUEST_URL / _TOKEN for one run. */
  requestCredentials(runId: number): { url: string; token: string };
  /** GitHub's claims for a run as the runner of that run would receive them. */
  claimsFor(runId: number, audience: string): Record<string, unknown>;
  /** Signs any claim set with the issuer's current key (tests forge claims with it). */
  sign(claims: Record<string, unknown>): Promise<string>;
  /** Publishes a new key and signs with it from now on; the old key stays published, as during a rotation. */
  rotateKey(): Promise<void>;
  /** Serves the discovery document, the keys and the token request; false when the path is not the issuer's. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** How many ID tokens each run was handed. */
  readonly issued: Map<number, number>;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomBytes(8).toString("hex");
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

/**
 * The key a new issuer starts with, shared by this process's issuers: an RSA key costs tens of
 * milliseconds of CPU and a test run starts hundreds of simulators. A rotation makes a fresh one.
 */
let sharedFirstKey: Promise<SigningKey> | undefined;
function firstKey(): Promise<SigningKey> {
  sharedFirstKey ??= newKey();
  return sharedFirstKey;
}

function findRun(store: Store, runId: number): { repo: Repo; run: WorkflowRun } | undefined {
  for (const repo of store.repos.values()) {
    const run = repo.runs.find((candidate) => candidate.id === runId);
    if (run) return { repo, run };
  }
  return undefined;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export async function createOidcIssuer(options: {
  store: Store;
  /** The simulator's web URL, resolved once it listens. */
  webUrl: () => string;
  /**
   * The reusable workflow a run's job executes (the `job_workflow_ref` claim), when it is not the
   * run's own workflow file, e.g. a caller `locus.yml` that `uses:` Locus's reusable workflow.
   */
  jobWorkflowRef?: (run: { owner: string; repo: string; workflowPath: string }) => string | undefined;
}): Promise<OidcIssuer> {
  const { store } = options;
  const keys: SigningKey[] = [await firstKey()];
  const requestTokens = new Map<string, number>();
  const issued = new Map<number, number>();
  const issuer = () => `${options.webUrl()}${OIDC_PATH}`;

  async function sign(claims: Record<string, unknown>): Promise<string> {
    const key = keys[keys.length - 1];
    if (!key) throw new Error("the issuer has no key");
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
      .sign(key.privateKey);
  }

  function claimsFor(runId: number, audience: string): Record<string, unknown> {
    const found = findRun(store, runId);
    if (!found) throw new Error(`no run ${runId}`);
    const { repo, run } = found;
    const now = Math.floor(store.now().getTime() / 1000);
    const ref = `refs/heads/${run.headBranch}`;
    const fullName = `${repo.owner}/${repo.name}`;
    const workflowRef = `${fullName}/${run.workflowPath}@${ref}`;
    const event = run.workflowPath.endsWith("/locus-stale.yml") ? "schedule" : run.event;
    const jobWorkflowRef =
      options.jobWorkflowRef?.({ owner: repo.owner, repo: repo.name, workflowPath: run.workflowPath }) ??
      workflowRef;
    return {
      jti: randomBytes(16).toString("hex"),
      sub: `repo:${fullName}:ref:${ref}`,
      aud: audience,
      ref,
      sha: run.headSha,
      repository: fullName,
      repository_owner: repo.owner,
      repository_owner_id: String(findUser(store, repo.owner)?.id ?? 0),
      repository_id: String(repo.id),
      repository_visibility: repo.isPrivate ? "private" : "public",
      run_id: String(run.id),
      run_number: String(run.runNumber),
      run_attempt: "1",
      actor: run.actor,
      actor_id: String(findUser(store, run.actor)?.id ?? 0),
      workflow: run.name,
      workflow_ref: workflowRef,
      workflow_sha: run.headSha,
      job_workflow_ref: jobWorkflowRef,
      job_workflow_sha: run.headSha,
      head_ref: "",
      base_ref: "",
      event_name: event,
      ref_type: "branch",
      ref_protected: "false",
      runner_environment: "github-hosted",
      iss: issuer(),
      nbf: now - 5,
      iat: now,
      exp: now + LIFETIME_SECONDS,
    };
  }

  async function answerTokenRequest(request: IncomingMessage, response: ServerResponse, url: URL) {
    const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const runId = bearer === undefined ? undefined : requestTokens.get(bearer);
    if (runId === undefined || String(runId) !== url.searchParams.get("run")) {
      json(response, 401, { message: "Bad request token" });
      return;
    }
    const found = findRun(store, runId);
    // A request token lives as long as its job.
    if (!found || found.run.status === "completed") {
      json(response, 401, { message: "The job has finished" });
      return;
    }
    const audience = url.searchParams.get("audience") || options.webUrl();
    issued.set(runId, (issued.get(runId) ?? 0) + 1);
    json(response, 200, { value: await sign(claimsFor(runId, audience)) });
  }

  return {
    get issuer() {
      return issuer();
    },
    issued,
    requestCredentials(runId) {
      const token = randomBytes(24).toString("base64url");
      requestTokens.set(token, runId);
      // @actions/core appends `&audience=…`, so the URL already carries a query.
      return { url: `${issuer()}/id-token?run=${runId}`, token };
    },
    claimsFor,
    sign,
    async rotateKey() {
      keys.push(await newKey());
    },
    handle(request, response) {
      const url = new URL(request.url ?? "/", "http://sim");
      if (!url.pathname.startsWith(`${OIDC_PATH}/`)) return false;
      const path = url.pathname.slice(OIDC_PATH.length);
      if (request.method === "GET" && path === "/.well-known/openid-configuration") {
        json(response, 200, {
          issuer: issuer(),
          jwks_uri: `${issuer()}/.well-known/jwks`,
          subject_types_supported: ["public", "pairwise"],
          response_types_supported: ["id_token"],
          claims_supported: ["sub", "aud", "exp", "iat", "iss", "jti", "nbf", "ref", "repository", "run_id"],
          id_token_signing_alg_values_supported: ["RS256"],
          scopes_supported: ["openid"],
        });
      } else if (request.method === "GET" && path === "/.well-known/jwks") {
        json(response, 200, { keys: keys.map((key) => key.jwk) });
      } else if (request.method === "GET" && path === "/id-token") {
        void answerTokenRequest(request, response, url).catch(() =>
          json(response, 500, { message: "error" }),
        );
      } else {
        json(response, 404, { message: "Not Found" });
      }
      return true;
    },
  };
}
