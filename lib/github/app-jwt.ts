/**
 * The app's JSON Web Token, signed once and reused until shortly before it
 * expires. GitHub accepts one app JWT for up to ten minutes
 * (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-json-web-token-jwt-for-a-github-app),
 * while Octokit's app auth would sign a new one (an RSA signature) for every
 * request made as the app: two per token exchange, one per installation token.
 * The shape is `@octokit/auth-app`'s `createJwt` option; the signing is
 * `universal-github-app-jwt`'s, the library Octokit signs with itself.
 */
import githubAppJwt from "universal-github-app-jwt";

/** `@octokit/auth-app`'s `createJwt`: `timeDifference` is GitHub's clock minus ours, in seconds, once a request met a skew error. */
export type CreateAppJwt = (
  appId: string | number,
  timeDifference?: number,
) => Promise<{ jwt: string; expiresAt: string }>;

/** A token this close to its expiry is not handed out again: the request still has to reach GitHub. */
export const JWT_REUSE_MARGIN_SECONDS = 60;

/**
 * A `createJwt` for one app key that reuses its last token while it has more
 * than a minute left. `now` is the clock in milliseconds (injected in tests).
 * Nothing is signed before a token is asked for, so a placeholder key
 * (Probot's setup flow) fails only if it is ever used.
 */
export function createCachedAppJwt(privateKey: string, now: () => number = Date.now): CreateAppJwt {
  let cached: { appId: string; jwt: string; expiresAt: string; reuseUntilMs: number } | undefined;
  async function jwtFor(appId: string | number, timeDifference: number) {
    const ourMs = now();
    // A skew correction always signs afresh; the corrected token is then the one reused.
    if (cached && cached.appId === String(appId) && timeDifference === 0 && ourMs < cached.reuseUntilMs) {
      return { jwt: cached.jwt, expiresAt: cached.expiresAt };
    }
    // The library Octokit signs with: issued 30 s back, valid GitHub's ten minutes, escaped line breaks read.
    const signed = await githubAppJwt({
      id: appId,
      privateKey,
      now: Math.floor(ourMs / 1000) + timeDifference,
    });
    const expiresAt = new Date(signed.expiration * 1000).toISOString();
    cached = {
      appId: String(appId),
      jwt: signed.token,
      expiresAt,
      reuseUntilMs: (signed.expiration - timeDifference - JWT_REUSE_MARGIN_SECONDS) * 1000,
    };
    return { jwt: signed.token, expiresAt };
  }
  // A bad key rejects the promise rather than throwing at the call.
  return (appId, timeDifference = 0) => jwtFor(appId, timeDifference);
}
