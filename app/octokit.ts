/**
 * Probot's Octokit with Locus's retry and throttling policy: bounded retries,
 * and a write queue per installation (the throttling plugin's default would
 * make every installation share one). Requests made as the app reuse one JWT
 * per app key while it is valid, instead of signing one per request.
 */
import { ProbotOctokit } from "probot";
import { createCachedAppJwt, type CreateAppJwt } from "../lib/github/app-jwt.ts";
import { createOctokitPolicy, type Log } from "../lib/github/index.ts";

interface AppAuthOptions {
  installationId?: number | string;
  privateKey?: string;
  createJwt?: CreateAppJwt;
}

export function locusOctokit(
  log: Log,
  overrides: { retryUnitMs?: number; minWriteIntervalMs?: number } = {},
): typeof ProbotOctokit {
  // One signer per key, shared by the app's client and every installation client Probot derives from it.
  const signers = new Map<string, CreateAppJwt>();
  const withCachedJwt = (auth: AppAuthOptions): AppAuthOptions => {
    if (!auth.privateKey) return auth;
    // Octokit's app auth takes a key or a signer, never both.
    const { privateKey, ...rest } = auth;
    let createJwt = signers.get(privateKey);
    if (!createJwt) signers.set(privateKey, (createJwt = createCachedAppJwt(privateKey)));
    return { ...rest, createJwt };
  };
  return ProbotOctokit.defaults((options: { auth?: AppAuthOptions; request?: Record<string, unknown> }) => {
    const policy = createOctokitPolicy({
      log,
      throttleId: `installation-${String(options.auth?.installationId ?? "app")}`,
      ...overrides,
    });
    // Probot passes its own request options (a custom fetch); keep them.
    return {
      ...options,
      ...(options.auth && { auth: withCachedJwt(options.auth) }),
      ...policy,
      request: { ...options.request, ...policy.request },
    };
  });
}
