/** `npm start`'s token exchange settings from the environment; without an app URL the route answers 503. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { tokenExchangeConfigFromEnv } from "../../app/token-exchange.ts";
import { createTokenRoute } from "../../app/token-route.ts";

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

describe("the token route without configuration", () => {
  it("answers 503 with the reason", async () => {
    const route = createTokenRoute({ deps: undefined, log: quiet });
    const server = createServer(route);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/locus/token`, { method: "POST", body: "{}" });
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: string; reason: string };
      expect(body.error).toBe("not-configured");
      expect(body.reason).toContain("LOCUS_APP_URL");
    } finally {
      server.close();
    }
  });
});
