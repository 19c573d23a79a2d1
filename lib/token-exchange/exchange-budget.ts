/**
 * How many token exchanges the app grants, per workflow run and per
 * repository. A run asks for at most a few tokens (one per phase, a refresh
 * each hour, a retry or two after a blip), so its own small budget stops one
 * run — or one stolen OIDC token, which is only good for its run — from
 * minting tokens in a loop. The repository's budget is far larger, because
 * many runs start at once when someone labels many issues: it is sized so a
 * hundred runs, each taking both phases and a retry, fit in one window, and
 * still bounds what a flood of runs can draw from the app's own GitHub rate
 * limit. Nothing is counted when either says no.
 */
import { createExchangeRateLimiter } from "./rate-limit.ts";

export interface ExchangeLimits {
  /** Exchanges one run attempt may make per window (default 10). */
  readonly perRun: number;
  /** Exchanges all runs of one repository may make per window (default 300). */
  readonly perRepository: number;
  /** Default 10 minutes. */
  readonly windowMs: number;
}

export const DEFAULT_EXCHANGE_LIMITS: ExchangeLimits = {
  perRun: 10,
  perRepository: 300,
  windowMs: 10 * 60_000,
};

export type BudgetAnswer =
  | { readonly ok: true }
  | { readonly ok: false; readonly scope: "run" | "repository"; readonly retryAfterMs: number };

export interface ExchangeBudget {
  take(repository: string, run: string): BudgetAnswer;
}

export function createExchangeBudget(limits: ExchangeLimits, now: () => number): ExchangeBudget {
  const runs = createExchangeRateLimiter({ limit: limits.perRun, windowMs: limits.windowMs, now });
  const repositories = createExchangeRateLimiter({
    limit: limits.perRepository,
    windowMs: limits.windowMs,
    now,
  });
  return {
    take(repository, run) {
      const repositoryKey = repository.toLowerCase();
      const runKey = `${repositoryKey}#${run}`;
      const runWait = runs.waitMs(runKey);
      if (runWait > 0) return { ok: false, scope: "run", retryAfterMs: runWait };
      const repositoryWait = repositories.waitMs(repositoryKey);
      if (repositoryWait > 0) return { ok: false, scope: "repository", retryAfterMs: repositoryWait };
      runs.take(runKey);
      repositories.take(repositoryKey);
      return { ok: true };
    },
  };
}
