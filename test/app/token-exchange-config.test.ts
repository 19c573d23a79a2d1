/**
 * `npm start`'s token exchange settings from the environment; without an app URL the route answers 503;
 * a refusal is logged with the claims, never the token.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { tokenExchangeConfigFromEnv } from "../../app/token-exchange.ts";
import { createTokenRoute, type TokenRoute } from "../../app/token-route.ts";
import type { ActionsClaims } from "../../lib/token-exchange/claims.ts";
import { LOCUS_RUN_CLAIMS } from "../lib/token-exchange/actions-claims.ts";
import { createMintLedger } from "../../lib/token-exchange/mint-ledger.ts";
import type { ExchangeGitHub } from "../../lib/token-exchange/exchange.ts";
import { createExchangeBudget } from "../../lib/token-exchange/exchange-budget.ts";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

describe("tokenExchangeConfigFromEnv", () => {
  it("is off without LOCUS_APP_URL or LOCUS_OIDC_AUDIENCE", () => {
    expect(tokenExchangeConfigFromEnv({})).toBeUndefined();
  });

  it("takes the app URL as audience and GitHub's issuer by default", () => {
    expect(tokenExchangeConfigFromEnv({ LOCUS_APP_URL: "https://locus.example.com/" })).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      audience: "https://locus.example.com",
    });
  });

  it("takes the issuer of the Enterprise Server that GHE_HOST names", () => {
    expect(
      tokenExchangeConfigFromEnv({
        LOCUS_APP_URL: "https://locus.example.com",
        GHE_HOST: "ghes.example.com",
      }),
    ).toEqual({
      issuer: "https://ghes.example.com/_services/token",
      audience: "https://locus.example.com",
    });
    expect(
      tokenExchangeConfigFromEnv({
        LOCUS_APP_URL: "http://locus.test",
        GHE_HOST: "ghes.test:8080",
        GHE_PROTOCOL: "http",
      })?.issuer,
    ).toBe("http://ghes.test:8080/_services/token");
  });

  it("honours an audience, an Enterprise Server issuer and reusable workflows", () => {
    expect(
      tokenExchangeConfigFromEnv({
        LOCUS_APP_URL: "https://locus.example.com",
        LOCUS_OIDC_AUDIENCE: "locus",
        LOCUS_OIDC_ISSUER: "https://ghes.example.com/_services/token",
        LOCUS_REUSABLE_WORKFLOWS:
          "acme/locus/.github/workflows/locus.yml, acme/locus/.github/workflows/x.yml",
      }),
    ).toEqual({
      issuer: "https://ghes.example.com/_services/token",
      audience: "locus",
      reusableWorkflows: ["acme/locus/.github/workflows/locus.yml", "acme/locus/.github/workflows/x.yml"],
    });
  });
});

async function post(route: TokenRoute, token?: string): Promise<Response> {
  const server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await fetch(`http://127.0.0.1:${port}/locus/token`, {
      method: "POST",
      body: JSON.stringify({ phase: "agent" }),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  } finally {
    server.close();
  }
}

describe("the token route", () => {
  it("logs a refusal with the token's claims and never the token", async () => {
    const claims: ActionsClaims = {
      ...LOCUS_RUN_CLAIMS,
      workflow_ref: "acme/app/.github/workflows/evil.yml@refs/heads/main",
      job_workflow_ref: "acme/app/.github/workflows/evil.yml@refs/heads/main",
      actor: "mallory",
    };
    const github: ExchangeGitHub = {
      installationOf: () => Promise.resolve(1),
      bot: () => Promise.resolve({ login: "acme-locus[bot]", id: 4242 }),
      repository: () => Promise.resolve({ id: "42", defaultBranch: "main", workflow: "locus.yml" }),
      run: () => Promise.reject(new Error("not reached")),
      deliveryRecord: () => Promise.reject(new Error("not reached")),
      mint: () => Promise.reject(new Error("not reached")),
    };
    const warnings: string[] = [];
    const route = createTokenRoute({
      deps: {
        verifier: { verify: () => Promise.resolve(claims) },
        github,
        limiter: createExchangeBudget({ perRun: 5, perRepository: 5, windowMs: 1000 }, () => 0),
        ledger: createMintLedger({ now: () => 0 }),
        reusableWorkflows: [],
      },
      log: { ...quiet, warn: (message) => warnings.push(message) },
    });
    const response = await post(route, "eyJsecret.oidc.token");
    expect(response.status).toBe(403);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("(wrong-workflow)");
    expect(warnings[0]).toContain('workflow_ref="acme/app/.github/workflows/evil.yml@refs/heads/main"');
    expect(warnings[0]).toContain('actor="mallory"');
    expect(warnings[0]).not.toContain("eyJsecret");
  });

  it("answers 503 with the reason without configuration", async () => {
    const response = await post(createTokenRoute({ deps: undefined, log: quiet }));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: string; reason: string };
    expect(body.error).toBe("not-configured");
    expect(body.reason).toContain("LOCUS_APP_URL");
  });
});
