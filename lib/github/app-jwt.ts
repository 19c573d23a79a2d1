/**
 * The app's JSON Web Token, signed once and reused until shortly before it
 * expires. GitHub accepts one app JWT for up to ten minutes
 * (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-json-web-token-jwt-for-a-github-app),
 * while Octokit's app auth would sign a new one (an RSA signature) for every
 * request made as the app: two per token exchange, one per installation token.
 * The shape is `@octokit/auth-app`'s `createJwt` option.
 */
import { createPrivateKey, sign, type KeyObject } from "node:crypto";

/** `@octokit/auth-app`'s `createJwt`: `timeDifference` is GitHub's clock minus ours, in seconds, once a request met a skew error. */
export type CreateAppJwt = (
  appId: string | number,
  timeDifference?: number,
) => Promise<{ jwt: string; expiresAt: string }>;

/** Issued this far in the past, as GitHub recommends, against a clock slightly ahead of GitHub's. */
const ISSUED_BEFORE_SECONDS = 60;
/** GitHub's limit on a JWT's lifetime (`exp - iat`). */
const LIFETIME_SECONDS = 600;
/** A token this close to its expiry is not handed out again: the request still has to reach GitHub. */
export const JWT_REUSE_MARGIN_SECONDS = 60;

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/**
 * A `createJwt` for one app key that reuses its last token while it has more
 * than a minute left. `now` is the clock in milliseconds (injected in tests).
 * The key is parsed at the first signature, so a placeholder key (Probot's
 * setup flow) fails only if it is ever used.
 */
export function createCachedAppJwt(privateKey: string, now: () => number = Date.now): CreateAppJwt {
  let key: KeyObject | undefined;
  let cached: { appId: string; jwt: string; expiresAt: string; reuseUntilMs: number } | undefined;
  function jwtFor(appId: string | number, timeDifference: number): { jwt: string; expiresAt: string } {
    const ourMs = now();
    // A skew correction always signs afresh; the corrected token is then the one reused.
    if (cached && cached.appId === String(appId) && timeDifference === 0 && ourMs < cached.reuseUntilMs) {
      return { jwt: cached.jwt, expiresAt: cached.expiresAt };
    }
    // Keys kept in environment variables often carry their line breaks escaped.
    key ??= createPrivateKey(privateKey.replace(/\\n/g, "\n"));
    const iat = Math.floor(ourMs / 1000) + timeDifference - ISSUED_BEFORE_SECONDS;
    const exp = iat + LIFETIME_SECONDS;
    const unsigned = `${base64url({ alg: "RS256", typ: "JWT" })}.${base64url({ iat, exp, iss: Number(appId) || String(appId) })}`;
    const jwt = `${unsigned}.${sign("RSA-SHA256", Buffer.from(unsigned), key).toString("base64url")}`;
    const expiresAt = new Date(exp * 1000).toISOString();
    cached = {
      appId: String(appId),
      jwt,
      expiresAt,
      reuseUntilMs: (exp - timeDifference - JWT_REUSE_MARGIN_SECONDS) * 1000,
    };
    return { jwt, expiresAt };
  }
  // A bad key rejects the promise rather than throwing at the call.
  return (appId, timeDifference = 0) => new Promise((resolve) => resolve(jwtFor(appId, timeDifference)));
}
