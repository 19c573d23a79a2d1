/**
 * A hundred Locus runs started at once, each asking the real app server for
 * both phases' tokens through the Action's own exchange client: with the
 * default budgets every one gets its tokens, while a flood of further
 * exchanges for the same repository is still refused, with the reason and
 * when to ask again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_EXCHANGE_LIMITS } from "../../lib/token-exchange/exchange-budget.ts";
import { createExchangeClient } from "../../lib/token-exchange/exchange-client.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { installationFor } from "../../sandbox/github-sim/store.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { owner, repo } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

const RUNS = 100;
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

let h: AppHarness;
const runIds: number[] = [];

beforeAll(async () => {
  // Default budgets (no rateLimit here), on the simulator's clock, which signs the OIDC tokens.
  h = await startAppHarness({
    files: { "README.md": "# demo\n", ...callerWorkflowFiles() },
    tokenExchange: { now: () => h.sim.store.now(), keyRefetchCooldownMs: 0 },
  });
  h.runsConclude("hold");
  const installation = installationFor(h.sim.store, owner);
  if (!installation) throw new Error("not installed");
  const app = mintInstallationToken(h.sim.store, installation.id).token;
  for (let issue = 1; issue <= RUNS; issue++) {
    const response = await fetch(
      `${h.sim.apiUrl}/repos/${owner}/${repo}/actions/workflows/locus.yml/dispatches`,
      {
        method: "POST",
        headers: { authorization: `token ${app}`, "content-type": "application/json" },
        body: JSON.stringify({
          ref: "main",
          inputs: { mode: "issue", issue: String(issue), delivery: `burst-${issue}` },
          return_run_details: true,
        }),
      },
    );
    runIds.push(((await response.json()) as { workflow_run_id: number }).workflow_run_id);
  }
}, 120_000);

afterAll(() => h.close());

function clientFor(runId: number, retries: string[] = []) {
  return createExchangeClient({
    appUrl: h.appUrl,
    idToken: (audience) => h.sim.oidc.sign(h.sim.oidc.claimsFor(runId, audience)),
    now: () => h.sim.store.now(),
    log: { ...quiet, warn: (message: string) => retries.push(message) },
    sleep: () => Promise.resolve(),
  });
}

describe("a hundred runs started at once", () => {
  it("all get their agent and publish tokens from the app", async () => {
    const retries: string[] = [];
    const tokens = await Promise.all(
      runIds.map(async (runId) => {
        const client = clientFor(runId, retries);
        return Promise.all([client.token("agent"), client.token("publish")]);
      }),
    );

    expect(tokens.flat()).toHaveLength(2 * RUNS);
    expect(tokens.flat().every((token) => token.startsWith("ghs_"))).toBe(true);
    expect(new Set(tokens.flat()).size).toBe(2 * RUNS);
    // A loaded machine may drop a connection, which the client rightly asks again for; what a
    // burst must never meet is the budget (429).
    expect(retries.filter((line) => /\(429\b/.test(line))).toEqual([]);
  }, 120_000);

  it("still stop a flood: the repository's budget refuses, saying why and when to ask again", async () => {
    // Every run at once asks again and again (as a loop would), never more than its own budget,
    // until it is refused.
    let granted = 2 * RUNS;
    type Refusal = { status: number; retryAfter: string | null; body: { error?: string; reason?: string } };
    const refusals: Refusal[] = [];
    await Promise.all(
      runIds.map(async (runId) => {
        for (let again = 0; again < DEFAULT_EXCHANGE_LIMITS.perRun - 2; again++) {
          // A fresh OIDC token of a later attempt each time: the ledger would refuse a repeat first.
          const idToken = await h.sim.oidc.sign({
            ...h.sim.oidc.claimsFor(runId, h.appUrl),
            run_attempt: String(again + 2),
          });
          const response = await fetch(`${h.appUrl}/locus/token`, {
            method: "POST",
            headers: { authorization: `Bearer ${idToken}`, "content-type": "application/json" },
            body: JSON.stringify({ phase: "agent" }),
          });
          const body = (await response.json()) as { error?: string; reason?: string };
          if (response.status === 200) granted += 1;
          else {
            refusals.push({ status: response.status, retryAfter: response.headers.get("retry-after"), body });
            return;
          }
        }
      }),
    );

    expect(granted).toBe(DEFAULT_EXCHANGE_LIMITS.perRepository);
    // The runs met the repository's budget, none its own: every refusal says the same.
    expect(
      new Set(refusals.map((refused) => `${refused.status} ${refused.body.reason?.replace(/\d+s$/, "…")}`))
        .size,
    ).toBe(1);
    const refusal = refusals[0];
    expect(refusal?.status).toBe(429);
    expect(refusal?.body.error).toBe("rate-limited");
    const fullName = `${owner}/${repo}`.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    expect(refusal?.body.reason).toMatch(
      new RegExp(`^too many token requests for ${fullName}; try again in \\d+s$`),
    );
    expect(Number(refusal?.retryAfter)).toBeGreaterThan(0);

    // The Action's client does not wait ten minutes for it: it fails at once with the app's reason.
    const retries: string[] = [];
    const late = runIds[RUNS - 1] ?? 0;
    await expect(clientFor(late, retries).token("agent")).rejects.toThrow(
      new RegExp(
        `refused an agent token \\(429 rate-limited\\): too many token requests for ${fullName}; try again in \\d+s`,
      ),
    );
    expect(retries).toEqual([]);
  }, 120_000);
});
