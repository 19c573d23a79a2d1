/**
 * Verifies a GitHub Actions OIDC token: RS256 signature against the keys the
 * issuer publishes (found through its discovery document, cached by `jose`,
 * which fetches them again when a token names a key it has not seen, so a
 * rotation needs no restart), `iss`, `aud`, and `exp`/`nbf`/`iat` with a small
 * clock skew. Answers the claims Locus reads, or throws a Refusal.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { actionsClaimsSchema, type ActionsClaims } from "./claims.ts";
import { Refusal, refuse } from "./refusal.ts";

export const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";

export interface OidcVerifierOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly now?: () => Date;
  /** Seconds of clock difference tolerated on exp, nbf and iat (default 60). */
  readonly clockToleranceSeconds?: number;
  /** Least time between two key fetches for unknown key ids (jose's default is 30 s). */
  readonly keyRefetchCooldownMs?: number;
}

export interface OidcVerifier {
  verify(token: string): Promise<ActionsClaims>;
}

async function discoverKeys(issuer: string, cooldownDuration: number | undefined): Promise<JWTVerifyGetKey> {
  const response = await fetch(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`the OIDC issuer's discovery document answered ${response.status}`);
  const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: unknown };
  if (typeof jwksUri !== "string") throw new Error("the OIDC issuer's discovery document names no jwks_uri");
  return createRemoteJWKSet(new URL(jwksUri), cooldownDuration === undefined ? {} : { cooldownDuration });
}

function refusalFor(error: unknown): Refusal {
  if (error instanceof errors.JWTExpired) return new Refusal("expired-token", "the OIDC token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return new Refusal("wrong-audience", "the OIDC token is for another audience");
    if (error.claim === "iss") return new Refusal("wrong-issuer", "the OIDC token comes from another issuer");
    return new Refusal("invalid-token", `the OIDC token's ${error.claim} claim is not valid now`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return new Refusal("invalid-token", "the OIDC token's signature is not the issuer's");
  }
  if (error instanceof errors.JOSEError)
    return new Refusal("invalid-token", "the OIDC token is not a valid JWT");
  throw error;
}

export function createOidcVerifier(options: OidcVerifierOptions): OidcVerifier {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const getKeys = () => {
    keys ??= discoverKeys(options.issuer, options.keyRefetchCooldownMs).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return {
    async verify(token) {
      const keySet = await getKeys();
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, keySet, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ["RS256"],
          clockTolerance: options.clockToleranceSeconds ?? 60,
          requiredClaims: ["exp", "iat"],
          ...(options.now ? { currentDate: options.now() } : {}),
        }));
      } catch (error) {
        throw refusalFor(error);
      }
      const claims = actionsClaimsSchema.safeParse(payload);
      if (!claims.success) {
        refuse("invalid-token", "the OIDC token lacks the GitHub Actions claims Locus reads");
      }
      return claims.data;
    },
  };
}
