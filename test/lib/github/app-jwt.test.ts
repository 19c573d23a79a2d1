import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCachedAppJwt, JWT_REUSE_MARGIN_SECONDS } from "../../../lib/github/app-jwt.ts";
import { loadAppKeys, verifyAppJwt } from "../../../sandbox/github-sim/app-auth.ts";

// The simulator's key pair: its verifier checks a JWT as GitHub does (signature, issuer, a short validity window).
const keys = loadAppKeys(undefined);
const privateKey = keys.privateKeyPem ?? "";
const APP_ID = 4242;
const start = Date.parse("2026-03-01T12:00:00Z");

function claims(jwt: string): { iat: number; exp: number; iss: unknown } {
  const payload = jwt.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
    iat: number;
    exp: number;
    iss: unknown;
  };
}

describe("the app's JWT", () => {
  it("is one GitHub accepts: RS256 by the app's key, issued 30 s back, ten minutes long", async () => {
    const { jwt, expiresAt } = await createCachedAppJwt(privateKey, () => start)(APP_ID);
    expect(() => verifyAppJwt(jwt, keys, APP_ID, new Date(start))).not.toThrow();
    const { iat, exp, iss } = claims(jwt);
    expect(iss).toBe(APP_ID);
    expect(iat).toBe(start / 1000 - 30);
    expect(exp - iat).toBe(600);
    expect(expiresAt).toBe(new Date(exp * 1000).toISOString());
    // Signed by another key, GitHub refuses it.
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs1",
      format: "pem",
    });
    const forged = await createCachedAppJwt(other.toString(), () => start)(APP_ID);
    expect(() => verifyAppJwt(forged.jwt, keys, APP_ID, new Date(start))).toThrow(/could not be decoded/);
  });

  it("is signed once and reused until a minute before it expires, then signed afresh", async () => {
    let now = start;
    const createJwt = createCachedAppJwt(privateKey, () => now);
    const first = await createJwt(APP_ID);
    now = start + 5 * 60_000;
    expect(await createJwt(APP_ID)).toEqual(first);
    const { exp } = claims(first.jwt);
    now = (exp - JWT_REUSE_MARGIN_SECONDS) * 1000 - 1;
    expect((await createJwt(APP_ID)).jwt).toBe(first.jwt);
    // Still valid at GitHub, but too close to its end to be sent on a request.
    now = (exp - JWT_REUSE_MARGIN_SECONDS) * 1000;
    const second = await createJwt(APP_ID);
    expect(second.jwt).not.toBe(first.jwt);
    expect(claims(second.jwt).iat).toBe(Math.floor(now / 1000) - 30);
    expect(() => verifyAppJwt(second.jwt, keys, APP_ID, new Date(now))).not.toThrow();
    expect(await createJwt(APP_ID)).toEqual(second);
  });

  it("after a clock-skew error, signs on GitHub's time and reuses that token", async () => {
    let now = start;
    const createJwt = createCachedAppJwt(privateKey, () => now);
    const ours = await createJwt(APP_ID);
    // GitHub's clock is twenty minutes ahead: our token expired there before it was made.
    const skew = 20 * 60;
    const github = new Date(start + skew * 1000);
    expect(() => verifyAppJwt(ours.jwt, keys, APP_ID, github)).toThrow(/Expiration time/);
    const corrected = await createJwt(APP_ID, skew);
    expect(() => verifyAppJwt(corrected.jwt, keys, APP_ID, github)).not.toThrow();
    now = start + 60_000;
    expect(await createJwt(APP_ID)).toEqual(corrected);
    // Its reuse ends by our clock a minute before it expires by GitHub's.
    now = (claims(corrected.jwt).exp - skew - JWT_REUSE_MARGIN_SECONDS) * 1000;
    expect((await createJwt(APP_ID)).jwt).not.toBe(corrected.jwt);
  });

  it("is signed for the app it is asked for, and keys with escaped line breaks work", async () => {
    const escaped = privateKey.replace(/\n/g, "\\n");
    const createJwt = createCachedAppJwt(escaped, () => start);
    const forApp = await createJwt(APP_ID);
    const forOther = await createJwt(APP_ID + 1);
    expect(claims(forOther.jwt).iss).toBe(APP_ID + 1);
    expect(forOther.jwt).not.toBe(forApp.jwt);
    // A client id (GitHub accepts it as the issuer too) stays a string.
    expect(claims((await createJwt("Iv23liAbC")).jwt).iss).toBe("Iv23liAbC");
    expect(() => verifyAppJwt(forApp.jwt, keys, APP_ID, new Date(start))).not.toThrow();
  });

  it("rejects, rather than throws, with a key that is not one, and only when asked to sign", async () => {
    // Probot's setup flow runs with a placeholder key; it must not fail before a JWT is needed.
    const createJwt = createCachedAppJwt("dummy value for setup", () => start);
    await expect(createJwt(APP_ID)).rejects.toThrow();
  });
});
