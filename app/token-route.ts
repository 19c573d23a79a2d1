/**
 * `POST /locus/token`: a Locus workflow run sends its GitHub Actions OIDC
 * token as `Authorization: Bearer …` and `{"phase":"agent"|"publish"}`, and
 * gets back an installation token for its one repository with that phase's
 * permissions (lib/token-exchange). A refusal is a 4xx JSON
 * `{"error": code, "reason": sentence}`, logged with the token's claims, never
 * the token itself.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Log } from "../lib/github/index.ts";
import { claimsForLog, type ActionsClaims } from "../lib/token-exchange/claims.ts";
import { exchangeToken, type ExchangeDeps } from "../lib/token-exchange/exchange.ts";
import { Refusal } from "../lib/token-exchange/refusal.ts";

export const TOKEN_PATH = "/locus/token";
const MAX_BODY_BYTES = 4096;

/** One exchange as the demo's timeline and the logs see it. */
export interface ExchangeEvent {
  readonly outcome: "granted" | "refused";
  readonly phase?: string;
  readonly repository?: string;
  readonly runId?: string;
  readonly permissions?: Readonly<Record<string, string>>;
  readonly status?: number;
  readonly reason?: string;
}

export type TokenRoute = (request: IncomingMessage, response: ServerResponse) => void;

function answer(response: ServerResponse, status: number, body: unknown, retryAfterSeconds?: number): void {
  response
    .writeHead(status, {
      "content-type": "application/json",
      "cache-control": "no-store",
      ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }),
    })
    .end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refusal("malformed-request", `the body is over ${MAX_BODY_BYTES} bytes`));
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on("error", reject);
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
      } catch {
        reject(new Refusal("malformed-request", "the body is not JSON"));
      }
    });
  });
}

export function createTokenRoute(options: {
  /** Undefined when the exchange is not configured: every request is answered 503. */
  readonly deps: ExchangeDeps | undefined;
  readonly log: Log;
  readonly onExchange?: (event: ExchangeEvent) => void;
}): TokenRoute {
  const { log } = options;
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let claims: ActionsClaims | undefined;
    try {
      if (!options.deps) {
        throw new Refusal(
          "not-configured",
          "this Locus app has no token exchange configured (LOCUS_APP_URL)",
        );
      }
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
      const body = await readBody(request);
      if (!token)
        throw new Refusal("missing-token", "send the run's OIDC token as Authorization: Bearer <token>");
      const result = await exchangeToken(options.deps, token, body, (verified) => (claims = verified));
      log.info(
        `token exchange: ${result.phase} token for ${result.repository} (${JSON.stringify(result.permissions)}); ${claimsForLog(result.claims)}`,
      );
      options.onExchange?.({
        outcome: "granted",
        phase: result.phase,
        repository: result.repository,
        runId: result.claims.run_id,
        permissions: result.permissions,
      });
      answer(response, 200, {
        token: result.token,
        expires_at: result.expiresAt,
        permissions: result.permissions,
        phase: result.phase,
        repository: result.repository,
        bot: { login: result.bot.login, id: result.bot.id },
      });
    } catch (error) {
      if (!(error instanceof Refusal)) {
        log.error(
          `token exchange failed: ${error instanceof Error ? error.message : String(error)}${claims ? `; ${claimsForLog(claims)}` : ""}`,
        );
        answer(response, 502, {
          error: "github-error",
          reason: "Locus could not reach GitHub to mint the token",
        });
        return;
      }
      log.warn(
        `token exchange refused (${error.code}): ${error.reason}${claims ? `; ${claimsForLog(claims)}` : ""}`,
      );
      options.onExchange?.({
        outcome: "refused",
        status: error.status,
        reason: error.reason,
        ...(claims ? { repository: claims.repository, runId: claims.run_id } : {}),
      });
      answer(response, error.status, { error: error.code, reason: error.reason }, error.retryAfterSeconds);
    }
  }
  return (request, response) => {
    void handle(request, response);
  };
}
