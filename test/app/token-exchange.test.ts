/**
 * POST /locus/token through the real app server over HTTP, with ID tokens
 * from the simulator's OIDC issuer: the run Locus dispatched gets a token for
 * its one repository with its phase's permissions; every other caller gets a
 * 4xx with a reason and no token is minted.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderStatusComment } from "../../lib/status/status-comment.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import type { Exchange } from "../../sandbox/github-sim/index.ts";
import { installationFor } from "../../sandbox/github-sim/store.ts";
import { owner, repo } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

const FILES = {
  "README.md": "# demo\n",
  ...callerWorkflowFiles(),
  ".github/workflows/locus-stale.yml": [
    "name: Locus stale",
    "on: { schedule: [{ cron: '17 * * * *' }], workflow_dispatch: {} }",
    "jobs: {}",
    "",
  ].join("\n"),
  // An attacker's workflow in the same repository, dispatchable with Locus's inputs.
  ".github/workflows/evil.yml": [
    "name: Evil",
    "on:",
    "  workflow_dispatch:",
    "    inputs: { mode: { type: string }, issue: { type: string }, delivery: { type: string } }",
    "jobs: {}",
    "",
  ].join("\n"),
};

let h: AppHarness;
let clock = new Date("2026-11-26T12:00:00Z");
const minted: Exchange[] = [];

beforeAll(async () => {
  h = await startAppHarness({
    files: FILES,
    tokenExchange: {
      now: () => clock,
      rateLimit: { perRun: 40, perRepository: 400, windowMs: 60_000 },
      keyRefetchCooldownMs: 0,
    },
    // Locus's narrowed mints name the repository; Probot's own installation tokens do not.
    observe: (exchange) => {
      const body = exchange.requestBody as { repository_ids?: unknown } | null;
      if (
        exchange.template === "/app/installations/{installation_id}/access_tokens" &&
        body?.repository_ids
      ) {
        minted.push(exchange);
      }
    },
  });
  h.runsConclude("hold");
  await h.sim.seed.repo("mallory/other", { files: FILES, install: false });
});
afterAll(() => h.close());
beforeEach(() => {
  clock = new Date(h.sim.store.now().getTime());
  minted.length = 0;
});

function appToken(): string {
  const installation = installationFor(h.sim.store, owner);
  if (!installation) throw new Error("not installed");
  return mintInstallationToken(h.sim.store, installation.id).token;
}

/** Dispatches a workflow as `by` (the app, or a person) and answers the new run's id. */
async function dispatch(workflow: string, inputs: Record<string, string>, by = appToken()): Promise<number> {
  const response = await fetch(
    `${h.sim.apiUrl}/repos/${owner}/${repo}/actions/workflows/${workflow}/dispatches`,
    {
      method: "POST",
      headers: { authorization: `token ${by}`, "content-type": "application/json" },
      body: JSON.stringify({ ref: "main", inputs, return_run_details: true }),
    },
  );
  const body = (await response.json()) as { workflow_run_id: number };
  return body.workflow_run_id;
}

async function idToken(runId: number, overrides: Record<string, unknown> = {}): Promise<string> {
  return h.sim.oidc.sign({ ...h.sim.oidc.claimsFor(runId, h.appUrl), ...overrides });
}

async function exchange(
  token: string | undefined,
  body: unknown = { phase: "agent" },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${h.appUrl}/locus/token`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

let delivery = 0;
const locusRun = () => dispatch("locus.yml", { mode: "issue", issue: "1", delivery: `d-${++delivery}` });

describe("the token exchange grants", () => {
  it("a run Locus dispatched an agent-phase token for its one repository", async () => {
    const runId = await locusRun();
    const answer = await exchange(await idToken(runId), { phase: "agent" });

    expect(answer.status).toBe(200);
    expect(answer.body.token).toMatch(/^ghs_/);
    // The app says who the token acts as: its bot, as GitHub names it (a slug the operator chose), with its id.
    expect(answer.body).toEqual(
      expect.objectContaining({ phase: "agent", repository: `${owner}/${repo}`, bot: h.sim.bot }),
    );
    expect(h.sim.bot.login).not.toBe("locus[bot]");
    expect(minted).toHaveLength(1);
    const repoId = h.repo.repo.id;
    expect(minted[0]?.requestBody).toEqual({
      repository_ids: [repoId],
      permissions: {
        issues: "write",
        pull_requests: "read",
        contents: "read",
        checks: "read",
        actions: "read",
      },
    });
  });

  it("the publish phase its write permissions, and never more than the phase needs whatever the body asks", async () => {
    const runId = await locusRun();
    const publish = await exchange(await idToken(runId), {
      phase: "publish",
      permissions: { workflows: "write", actions: "write", administration: "write" },
      repositories: ["other"],
    });
    const agent = await exchange(await idToken(runId), {
      phase: "agent",
      permissions: { contents: "write" },
    });

    expect([publish.status, agent.status]).toEqual([200, 200]);
    expect(minted.map((m) => (m.requestBody as { permissions: unknown }).permissions)).toEqual([
      { contents: "write", issues: "write", pull_requests: "write", checks: "read", actions: "read" },
      { issues: "write", pull_requests: "read", contents: "read", checks: "read", actions: "read" },
    ]);
  });

  it("the scheduled stale sweep", async () => {
    const runId = await dispatch("locus-stale.yml", {});
    const claims = h.sim.oidc.claimsFor(runId, h.appUrl);
    expect(claims.event_name).toBe("schedule");
    expect((await exchange(await h.sim.oidc.sign(claims))).status).toBe(200);
    const publish = await exchange(await idToken(runId), { phase: "publish" });
    expect([publish.status, publish.body.error]).toEqual([403, "wrong-phase"]);
  });

  it("an ask run only an agent token: it publishes nothing", async () => {
    const runId = await dispatch("locus.yml", { mode: "ask", issue: "1", delivery: `d-${++delivery}` });
    expect((await exchange(await idToken(runId), { phase: "agent" })).status).toBe(200);
    const publish = await exchange(await idToken(runId), { phase: "publish" });
    expect([publish.status, publish.body.error]).toEqual([403, "wrong-phase"]);
    expect(minted).toHaveLength(1);
  });

  it("a run the stale sweep re-dispatched, whose delivery Locus recorded on the issue", async () => {
    const { data: issue } = await h.as("alice").rest.issues.create({ owner, repo, title: "Retry" });
    const recorded = `stale-77-${issue.number}`;
    await fetch(`${h.sim.apiUrl}/repos/${owner}/${repo}/issues/${issue.number}/comments`, {
      method: "POST",
      headers: { authorization: `token ${appToken()}`, "content-type": "application/json" },
      body: JSON.stringify({
        body: `<!-- locus:status -->\n${renderStatusComment({ headline: "Re-queued" }, { deliveries: [recorded], attempts: 1 })}`,
      }),
    });
    const alice = h.sim.as("alice");
    const byHand = { mode: "issue", issue: String(issue.number) };
    const recordedRun = await dispatch("locus.yml", { ...byHand, delivery: recorded }, alice);
    // Another issue, so its run is not in the first run's concurrency group (where it would cancel it).
    const { data: other } = await h.as("alice").rest.issues.create({ owner, repo, title: "Never re-queued" });
    const madeUpRun = await dispatch(
      "locus.yml",
      { mode: "issue", issue: String(other.number), delivery: `stale-78-${other.number}` },
      alice,
    );

    const granted = await exchange(await idToken(recordedRun));
    expect([granted.status, granted.body.reason]).toEqual([200, undefined]);
    const madeUp = await exchange(await idToken(madeUpRun));
    expect([madeUp.status, madeUp.body.error]).toEqual([403, "unknown-run"]);
  });

  it("a token signed with a rotated key", async () => {
    const runId = await locusRun();
    expect((await exchange(await idToken(runId))).status).toBe(200);
    await h.sim.oidc.rotateKey();
    expect((await exchange(await idToken(runId), { phase: "publish" })).status).toBe(200);
  });

  it("a phase again only when the run's token is within ten minutes of expiring (a long run's renewal)", async () => {
    const runId = await locusRun();
    const first = await exchange(await idToken(runId), { phase: "publish" });
    expect(first.status).toBe(200);
    const expiresAt = Date.parse(String(first.body.expires_at));
    // An OIDC token issued at the app's clock, as the runner would hand out then.
    const issuedNow = async () => {
      const seconds = Math.floor(clock.getTime() / 1000);
      return idToken(runId, { iat: seconds, nbf: seconds, exp: seconds + 300 });
    };
    clock = new Date(expiresAt - 11 * 60_000);
    expect((await exchange(await issuedNow(), { phase: "publish" })).status).toBe(409);
    clock = new Date(expiresAt - 9 * 60_000);
    expect((await exchange(await issuedNow(), { phase: "publish" })).status).toBe(200);
  });
});

describe("the token exchange refuses, minting nothing,", () => {
  async function refused(token: string | undefined, body?: unknown) {
    const answer = await exchange(token, body);
    expect(answer.body.token).toBeUndefined();
    expect(typeof answer.body.reason).toBe("string");
    expect(minted).toHaveLength(0);
    return { status: answer.status, error: answer.body.error };
  }

  it("a forged signature", async () => {
    const runId = await locusRun();
    const { keys } = (await (await fetch(`${h.sim.oidc.issuer}/.well-known/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    // The forger's key is not one the issuer publishes, though the token names the issuer's key id.
    const forgerKey = await exportJWK(publicKey);
    expect(keys.map((key) => JSON.stringify(key))).not.toContain(
      JSON.stringify({ ...forgerKey, kid: keys[0]?.kid }),
    );
    const forged = await new SignJWT(h.sim.oidc.claimsFor(runId, h.appUrl))
      .setProtectedHeader({ alg: "RS256", kid: keys[0]?.kid ?? "" })
      .sign(privateKey);
    expect(await refused(forged)).toEqual({ status: 401, error: "invalid-token" });
    expect(await refused("not.a.jwt")).toEqual({ status: 401, error: "invalid-token" });
  });

  it("an expired token, and a good one replayed after it expired", async () => {
    const runId = await locusRun();
    const now = Math.floor(clock.getTime() / 1000);
    expect(await refused(await idToken(runId, { iat: now - 900, nbf: now - 900, exp: now - 600 }))).toEqual({
      status: 401,
      error: "expired-token",
    });
    const token = await idToken(runId);
    clock = new Date(clock.getTime() + 10 * 60_000);
    expect(await refused(token)).toEqual({ status: 401, error: "expired-token" });
  });

  it("another audience or issuer", async () => {
    const runId = await locusRun();
    expect(
      await refused(await h.sim.oidc.sign(h.sim.oidc.claimsFor(runId, "https://elsewhere.example"))),
    ).toEqual({ status: 401, error: "wrong-audience" });
    expect(
      await refused(await idToken(runId, { iss: "https://token.actions.githubusercontent.com" })),
    ).toEqual({
      status: 401,
      error: "wrong-issuer",
    });
  });

  it("a repository Locus is not installed on, or a repository id that is not the repository's", async () => {
    const repo = h.sim.store.repos.get("mallory/other");
    if (!repo) throw new Error("no repo");
    const runId = await locusRun();
    expect(
      await refused(await idToken(runId, { repository: "mallory/other", repository_id: String(repo.id) })),
    ).toEqual({
      status: 403,
      error: "not-installed",
    });
    expect(await refused(await idToken(runId, { repository_id: String(repo.id) }))).toEqual({
      status: 403,
      error: "wrong-repository",
    });
  });

  it("an attacker's workflow in the same repository, even calling the reusable workflow", async () => {
    const runId = await dispatch("evil.yml", { mode: "issue", issue: "1", delivery: "x" }, h.sim.as("alice"));
    expect(await refused(await idToken(runId))).toEqual({ status: 403, error: "wrong-workflow" });
    const ref = "locus-dev/locus/.github/workflows/locus.yml@refs/tags/v1";
    expect(await refused(await idToken(runId, { job_workflow_ref: ref }))).toEqual({
      status: 403,
      error: "wrong-workflow",
    });
  });

  it("the Locus workflow's job running some other reusable workflow", async () => {
    const runId = await locusRun();
    const ref = "mallory/tools/.github/workflows/dump.yml@refs/heads/main";
    expect(await refused(await idToken(runId, { job_workflow_ref: ref }))).toEqual({
      status: 403,
      error: "wrong-workflow",
    });
  });

  it("a pull request from a fork, and the Locus workflow on another branch", async () => {
    const runId = await locusRun();
    expect(
      await refused(await idToken(runId, { event_name: "pull_request", ref: "refs/pull/4/merge" })),
    ).toEqual({ status: 403, error: "wrong-event" });
    expect(await refused(await idToken(runId, { event_name: "pull_request_target" }))).toEqual({
      status: 403,
      error: "wrong-event",
    });
    const branch = "refs/heads/feature";
    expect(
      await refused(
        await idToken(runId, {
          ref: branch,
          workflow_ref: `${owner}/${repo}/.github/workflows/locus.yml@${branch}`,
        }),
      ),
    ).toEqual({ status: 403, error: "wrong-ref" });
  });

  it("a run Locus never dispatched, an unknown run, and a finished run", async () => {
    const byHand = await dispatch(
      "locus.yml",
      { mode: "issue", issue: "1", delivery: "made-up" },
      h.sim.as("alice"),
    );
    expect(await refused(await idToken(byHand))).toEqual({ status: 403, error: "unknown-run" });
    const runId = await locusRun();
    expect(await refused(await idToken(runId, { run_id: "999999" }))).toEqual({
      status: 403,
      error: "unknown-run",
    });
    const token = await idToken(runId);
    const repo = h.repo.repo;
    if (!repo) throw new Error("no repo");
    await h.sim.runs.complete(repo, runId, "success");
    expect(await refused(token)).toEqual({ status: 403, error: "unknown-run" });
  });

  it("a malformed body or no token", async () => {
    const runId = await locusRun();
    const token = await idToken(runId);
    expect(await refused(token, "{not json")).toEqual({ status: 400, error: "malformed-request" });
    expect(await refused(token, { phase: "admin" })).toEqual({ status: 400, error: "malformed-request" });
    expect(await refused(token, [])).toEqual({ status: 400, error: "malformed-request" });
    expect(await refused(undefined)).toEqual({ status: 401, error: "missing-token" });
  });

  it("more exchanges for one run than its limit, until the window passes", async () => {
    const runId = await locusRun();
    // Each from an attempt of its own: an attempt gets each phase once.
    let attempt = 0;
    const fresh = async () => exchange(await idToken(runId, { run_attempt: String((attempt += 1)) }));
    let granted = 0;
    let answer = await fresh();
    while (answer.status === 200 && granted < 100) {
      granted += 1;
      answer = await fresh();
    }
    expect([answer.status, answer.body.error]).toEqual([429, "rate-limited"]);
    expect(answer.body.reason).toMatch(
      new RegExp(`too many token requests for run ${runId}; try again in \\d+s`),
    );
    expect(granted).toBeLessThanOrEqual(40);
    clock = new Date(clock.getTime() + 61_000);
    expect((await fresh()).status).toBe(200);
  });

  it("a second token for a phase the run already holds: whoever asks second, Locus or a thief", async () => {
    const runId = await locusRun();
    expect((await exchange(await idToken(runId), { phase: "publish" })).status).toBe(200);
    minted.length = 0;
    expect(await refused(await idToken(runId), { phase: "publish" })).toEqual({
      status: 409,
      error: "already-minted",
    });
    // A re-run is a new attempt, which starts with no token.
    const rerun = await exchange(await idToken(runId, { run_attempt: "2" }), { phase: "publish" });
    expect(rerun.status).toBe(200);
  });

  it("the same OIDC token traded twice, even for another phase", async () => {
    const token = await idToken(await locusRun());
    expect((await exchange(token, { phase: "agent" })).status).toBe(200);
    minted.length = 0;
    expect(await refused(token, { phase: "publish" })).toEqual({ status: 409, error: "already-minted" });
  });
});
