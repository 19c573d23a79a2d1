import { createPublicKey, generateKeyPairSync, randomBytes, verify } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { HttpError } from "./http-error.ts";
import type { Store, TokenRecord } from "./model.ts";
import { isoNow } from "./model.ts";

export interface AppKeys {
  publicKey: KeyObject;
  // Only known when the simulator generated the pair itself.
  privateKeyPem: string | null;
}

/**
 * The key pair this process's simulators use when none is given. An RSA key
 * costs tens of milliseconds of CPU to generate and a test run starts
 * hundreds of simulators, so they share one; each still refuses a JWT signed
 * by any other key.
 */
let generatedKeys: AppKeys | undefined;

export function loadAppKeys(publicKeyPem: string | undefined): AppKeys {
  if (publicKeyPem) return { publicKey: createPublicKey(publicKeyPem), privateKeyPem: null };
  if (!generatedKeys) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    generatedKeys = {
      publicKey: pair.publicKey,
      privateKeyPem: pair.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    };
  }
  return generatedKeys;
}

function jwtError(message: string): HttpError {
  return new HttpError(401, { message, documentation_url: "https://docs.github.com/rest", status: "401" });
}

function decodeSegment(segment: string | undefined): Record<string, unknown> {
  if (!segment) throw jwtError("A JSON web token could not be decoded");
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    if (typeof value === "object" && value !== null) return value as Record<string, unknown>;
  } catch {
    // fall through to GitHub's decode error
  }
  throw jwtError("A JSON web token could not be decoded");
}

// Checks an app JWT the way GitHub does: RS256 signature by the app's key, iss = app id, a short, current validity window.
export function verifyAppJwt(jwt: string, keys: AppKeys, appId: number, now: Date): void {
  const [headerPart, payloadPart, signaturePart] = jwt.split(".");
  const header = decodeSegment(headerPart);
  const payload = decodeSegment(payloadPart);
  if (header.alg !== "RS256" || signaturePart === undefined)
    throw jwtError("A JSON web token could not be decoded");
  const valid = verify(
    "RSA-SHA256",
    Buffer.from(`${headerPart}.${payloadPart}`),
    keys.publicKey,
    Buffer.from(signaturePart, "base64url"),
  );
  if (!valid) throw jwtError("A JSON web token could not be decoded");
  if (String(payload.iss) !== String(appId)) throw jwtError(`'Issuer' claim ('iss') must be an Integer`);
  const seconds = Math.floor(now.getTime() / 1000);
  const { exp, iat } = payload;
  if (typeof exp !== "number" || exp <= seconds) {
    throw jwtError(
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    );
  }
  if (typeof iat !== "number" || iat > seconds + 60) {
    throw jwtError(
      "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    );
  }
  if (exp - iat > 600) throw jwtError("'Expiration time' claim ('exp') is too far in the future");
}

/** An installation token with the app's whole grant, or the narrower `permissions` asked for. */
export function mintInstallationToken(
  store: Store,
  installationId: number,
  permissions: TokenRecord["permissions"] = store.app.permissions,
): TokenRecord {
  const expires = new Date(store.now().getTime() + 60 * 60 * 1000);
  const record: TokenRecord = {
    token: `ghs_${randomBytes(18).toString("base64url")}`,
    kind: "installation",
    login: store.app.botLogin,
    installationId,
    expiresAt: expires.toISOString().replace(/\.\d{3}Z$/, "Z"),
    permissions,
  };
  store.tokens.set(record.token, record);
  return record;
}

export function mintUserToken(store: Store, login: string): TokenRecord {
  const record: TokenRecord = {
    token: `ghp_${randomBytes(18).toString("base64url")}`,
    kind: "user",
    login,
    installationId: null,
    expiresAt: null,
    permissions: null,
  };
  store.tokens.set(record.token, record);
  return record;
}

export function tokenExpired(store: Store, record: TokenRecord): boolean {
  return record.expiresAt !== null && record.expiresAt <= isoNow(store);
}
