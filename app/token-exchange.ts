/**
 * Assembles the token exchange route from its configuration: the OIDC issuer
 * and audience, the reusable Locus workflows a job may run, and the per-run
 * and per-repository budgets (lib/token-exchange/exchange-budget.ts). `npm
 * start` reads it from the environment (LOCUS_APP_URL, LOCUS_OIDC_AUDIENCE, LOCUS_OIDC_ISSUER,
 * LOCUS_REUSABLE_WORKFLOWS); the issuer defaults to the one of the GitHub that
 * GHE_HOST names. The sandbox passes the simulator's issuer.
 */
import type { Probot } from "probot";
import type { Log } from "../lib/github/index.ts";
import { DEFAULT_REUSABLE_WORKFLOWS } from "../lib/token-exchange/claim-rules.ts";
import { actionsIssuerFor } from "../lib/token-exchange/actions-issuer.ts";
import { createOidcVerifier } from "../lib/token-exchange/oidc-verifier.ts";
import { createMintLedger } from "../lib/token-exchange/mint-ledger.ts";
import { withSharedReads } from "../lib/token-exchange/shared-reads.ts";
import {
  createExchangeBudget,
  DEFAULT_EXCHANGE_LIMITS,
  type ExchangeLimits,
} from "../lib/token-exchange/exchange-budget.ts";
import { probotExchangeGitHub } from "./token-exchange-github.ts";
import { createTokenRoute, type ExchangeEvent, type TokenRoute } from "./token-route.ts";

export interface TokenExchangeConfig {
  readonly issuer: string;
  /** The `aud` the Action asks for: the app's URL unless configured otherwise. */
  readonly audience: string;
  readonly reusableWorkflows?: readonly string[];
  /** Exchanges per run and per repository per window (default 10 and 300 in 10 minutes). */
  readonly rateLimit?: Partial<ExchangeLimits>;
  readonly now?: () => Date;
  readonly keyRefetchCooldownMs?: number;
  readonly onExchange?: (event: ExchangeEvent) => void;
}

export function tokenExchangeConfigFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): TokenExchangeConfig | undefined {
  const audience = env["LOCUS_OIDC_AUDIENCE"] || env["LOCUS_APP_URL"]?.replace(/\/+$/, "");
  if (!audience) return undefined;
  const reusable = env["LOCUS_REUSABLE_WORKFLOWS"]
    ?.split(",")
    .map((path) => path.trim())
    .filter(Boolean);
  return {
    issuer:
      env["LOCUS_OIDC_ISSUER"] || actionsIssuerFor({ host: env["GHE_HOST"], protocol: env["GHE_PROTOCOL"] }),
    audience,
    ...(reusable && reusable.length > 0 ? { reusableWorkflows: reusable } : {}),
  };
}

export function createTokenExchangeRoute(
  probot: Probot,
  config: TokenExchangeConfig | undefined,
  log: Log,
): TokenRoute {
  const now = config?.now ?? (() => new Date());
  const deps = config && {
    verifier: createOidcVerifier({
      issuer: config.issuer,
      audience: config.audience,
      now,
      ...(config.keyRefetchCooldownMs === undefined
        ? {}
        : { keyRefetchCooldownMs: config.keyRefetchCooldownMs }),
    }),
    github: withSharedReads(probotExchangeGitHub(probot, log)),
    limiter: createExchangeBudget({ ...DEFAULT_EXCHANGE_LIMITS, ...config.rateLimit }, () => now().getTime()),
    ledger: createMintLedger({ now: () => now().getTime() }),
    reusableWorkflows: config.reusableWorkflows ?? DEFAULT_REUSABLE_WORKFLOWS,
  };
  return createTokenRoute({ deps, log, ...(config?.onExchange ? { onExchange: config.onExchange } : {}) });
}
