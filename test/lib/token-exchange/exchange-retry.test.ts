/** The exchange client's retries (network errors, 5xx, 429 with Retry-After), and the app's per-run and per-repository budgets. */
import { describe, expect, it } from "vitest";
import { createExchangeBudget } from "../../../lib/token-exchange/exchange-budget.ts";
import { createExchangeClient } from "../../../lib/token-exchange/exchange-client.ts";
import {
  DEFAULT_RETRY_POLICY,
  retryAfterMs,
  retryDelayMs,
} from "../../../lib/token-exchange/exchange-retry.ts";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const NOW = Date.parse("2026-11-26T12:00:00Z");

type Answer = Error | { status: number; body: unknown; headers?: Record<string, string> };

function clientAnswering(answers: Answer[]) {
  const waits: number[] = [];
  let asked = 0;
  const client = createExchangeClient({
    appUrl: "https://locus.example",
    idToken: () => Promise.resolve("oidc-jwt"),
    now: () => new Date(NOW),
    log: quiet,
    random: () => 0.5,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    fetch: () => {
      const answer = answers[asked++];
      if (!answer) throw new Error("asked more often than the test expected");
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve(
        new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers ?? {} }),
      );
    },
  });
  return { client, waits, asked: () => asked };
}

const granted = {
  status: 200,
  body: { token: "ghs_ok", expires_at: "2026-11-26T13:00:00Z", bot: { login: "acme-locus[bot]", id: 41 } },
};

describe("the exchange client's retries", () => {
  it("asks again after a network error and a 5xx, waiting longer each time", async () => {
    const { client, waits } = clientAnswering([
      new TypeError("fetch failed", { cause: new Error("ECONNRESET") }),
      {
        status: 502,
        body: { error: "github-error", reason: "Locus could not reach GitHub to mint the token" },
      },
      { status: 500, body: {} },
      granted,
    ]);
    expect(await client.token("agent")).toBe("ghs_ok");
    // Equal jitter with random 0.5: three quarters of 1s, 2s, 4s.
    expect(waits).toEqual([750, 1500, 3000]);
  });

  it("honours a 429's Retry-After, in seconds or as a date, with a little jitter", async () => {
    const { client, waits } = clientAnswering([
      { status: 429, body: { error: "rate-limited", reason: "busy" }, headers: { "retry-after": "30" } },
      {
        status: 429,
        body: { error: "rate-limited", reason: "busy" },
        headers: { "retry-after": new Date(NOW + 10_000).toUTCString() },
      },
      granted,
    ]);
    expect(await client.token("publish")).toBe("ghs_ok");
    expect(waits).toEqual([30_500, 10_500]);
  });

  it("stops after a bounded number of attempts, saying what the app answered last", async () => {
    const answers = Array.from({ length: DEFAULT_RETRY_POLICY.attempts }, () => ({
      status: 503,
      body: { error: "github-error", reason: "GitHub is down" },
    }));
    const { client, waits, asked } = clientAnswering(answers);
    await expect(client.token("agent")).rejects.toThrow(
      `The Locus app at https://locus.example refused an agent token (503 github-error) after 5 attempts: GitHub is down`,
    );
    expect([asked(), waits.length]).toEqual([5, 4]);
  });

  it("never asks again after a refusal, nor when a 429 asks for a longer wait than it accepts", async () => {
    for (const answer of [
      { status: 403, body: { error: "unknown-run", reason: "run 7 has finished" } },
      { status: 503, body: { error: "not-configured", reason: "no LOCUS_APP_URL" } },
      {
        status: 429,
        body: { error: "rate-limited", reason: "try again in 600s" },
        headers: { "retry-after": "600" },
      },
    ]) {
      const { client, waits, asked } = clientAnswering([answer]);
      await expect(client.token("agent")).rejects.toThrow(
        `refused an agent token (${answer.status} ${answer.body.error}): ${answer.body.reason}`,
      );
      expect([asked(), waits]).toEqual([1, []]);
    }
  });
});

describe("retry rules", () => {
  it("reads Retry-After as seconds or an HTTP date, and ignores anything else", () => {
    expect(retryAfterMs("12", NOW)).toBe(12_000);
    expect(retryAfterMs(new Date(NOW - 5000).toUTCString(), NOW)).toBe(0);
    expect([retryAfterMs(null, NOW), retryAfterMs("soon", NOW), retryAfterMs(" ", NOW)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("caps the backoff and allows no attempt past the last", () => {
    const policy = { attempts: 10, baseDelayMs: 1000, maxDelayMs: 8000 };
    expect([1, 2, 3, 4, 5, 9].map((attempt) => retryDelayMs(policy, attempt, undefined, 0))).toEqual([
      500, 1000, 2000, 4000, 4000, 4000,
    ]);
    expect(retryDelayMs(policy, 10, undefined, 0)).toBeUndefined();
  });
});

describe("createExchangeBudget", () => {
  it("limits each run and the whole repository, counts nothing it refuses, and says when to ask again", () => {
    let now = 0;
    const budget = createExchangeBudget({ perRun: 2, perRepository: 3, windowMs: 1000 }, () => now);
    expect([budget.take("o/r", "1"), budget.take("o/r", "1")]).toEqual([{ ok: true }, { ok: true }]);
    expect(budget.take("O/R", "1")).toEqual({ ok: false, scope: "run", retryAfterMs: 1000 });
    now = 400;
    expect(budget.take("o/r", "2")).toEqual({ ok: true });
    expect(budget.take("o/r", "3")).toEqual({ ok: false, scope: "repository", retryAfterMs: 600 });
    expect(budget.take("other/r", "3")).toEqual({ ok: true });
    now = 1000;
    expect(budget.take("o/r", "3")).toEqual({ ok: true });
  });
});
