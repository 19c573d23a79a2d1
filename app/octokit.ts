/**
 * Probot's Octokit with Locus's retry and throttling policy: bounded retries,
 * and a write queue per installation (the throttling plugin's default would
 * make every installation share one).
 */
import { ProbotOctokit } from "probot";
import { createOctokitPolicy, type Log } from "../lib/github/index.ts";

export function locusOctokit(
  log: Log,
  overrides: { retryUnitMs?: number; minWriteIntervalMs?: number } = {},
): typeof ProbotOctokit {
  return ProbotOctokit.defaults(
    (options: { auth?: { installationId?: number | string }; request?: Record<string, unknown> }) => {
      const policy = createOctokitPolicy({
        log,
        throttleId: `installation-${String(options.auth?.installationId ?? "app")}`,
        ...overrides,
      });
      // Probot passes its own request options (a custom fetch); keep them.
      return { ...options, ...policy, request: { ...options.request, ...policy.request } };
    },
  );
}
