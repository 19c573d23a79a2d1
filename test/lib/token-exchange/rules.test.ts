/** The exchange's pure rules: which claims, runs and bodies get a token, and the rate limit. */
import { describe, expect, it } from "vitest";
import { LOCUS_RUN_CLAIMS } from "./actions-claims.ts";
import { checkWorkflowClaims, DEFAULT_REUSABLE_WORKFLOWS } from "../../../lib/token-exchange/claim-rules.ts";
import { parsePhase } from "../../../lib/token-exchange/exchange.ts";
import { phasePermissions } from "../../../lib/token-exchange/phases.ts";
import { createExchangeRateLimiter } from "../../../lib/token-exchange/rate-limit.ts";
import { Refusal } from "../../../lib/token-exchange/refusal.ts";
import {
  checkDeliveryRecord,
  checkPhase,
  checkRun,
  type RunFacts,
} from "../../../lib/token-exchange/run-rules.ts";

const claims = LOCUS_RUN_CLAIMS;
const expected = {
  repositoryId: "42",
  defaultBranch: "main",
  workflow: "locus.yml",
  reusableWorkflows: DEFAULT_REUSABLE_WORKFLOWS,
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (error instanceof Refusal) return error.code;
    throw error;
  }
}

describe("checkWorkflowClaims", () => {
  it("accepts the configured workflow calling the reusable one, and the stale sweep on its schedule", () => {
    expect(checkWorkflowClaims(claims, expected)).toBe("locus");
    const stale = "acme/app/.github/workflows/locus-stale.yml@refs/heads/main";
    expect(
      checkWorkflowClaims(
        { ...claims, event_name: "schedule", workflow_ref: stale, job_workflow_ref: stale },
        expected,
      ),
    ).toBe("stale");
    const custom = "acme/app/.github/workflows/ai.yml@refs/heads/main";
    expect(
      checkWorkflowClaims({ ...claims, workflow_ref: custom }, { ...expected, workflow: "ai.yml" }),
    ).toBe("locus");
  });

  it.each([
    ["wrong-repository", { repository_id: "43" }],
    ["wrong-event", { event_name: "pull_request" }],
    ["wrong-event", { event_name: "push" }],
    ["wrong-event", { event_name: "schedule" }],
    ["wrong-ref", { ref: "refs/heads/dev" }],
    ["wrong-workflow", { workflow_ref: "acme/app/.github/workflows/evil.yml@refs/heads/main" }],
    ["wrong-workflow", { workflow_ref: "acme/app/.github/workflows/locus.yml@refs/heads/dev" }],
    ["wrong-workflow", { job_workflow_ref: "eve/tools/.github/workflows/locus.yml@main" }],
  ])("refuses %s for %j", (code, change) => {
    expect(codeOf(() => checkWorkflowClaims({ ...claims, ...change }, expected))).toBe(code);
  });
});

const run: RunFacts = {
  id: 7,
  path: ".github/workflows/locus.yml",
  status: "in_progress",
  displayTitle: "Locus issue #3 (a1b2)",
  actor: "locus[bot]",
  triggeringActor: "locus[bot]",
};
const locus = { kind: "locus" as const, workflow: "locus.yml", botLogin: "locus[bot]" };

describe("checkRun", () => {
  it("accepts a run Locus dispatched, and a re-run of it", () => {
    expect(checkRun(run, locus)).toEqual({ ok: true });
    expect(checkRun({ ...run, triggeringActor: "alice" }, locus)).toEqual({ ok: true });
  });

  it("asks for the status record of a run someone else dispatched with a re-dispatch delivery", () => {
    const byHand = { ...run, actor: "github-actions[bot]", displayTitle: "Locus issue #3 (stale-99-3)" };
    expect(checkRun(byHand, locus)).toEqual({ ok: false, issue: 3, delivery: "stale-99-3" });
    expect(() =>
      checkDeliveryRecord(
        byHand,
        "stale-99-3",
        { author: "locus[bot]", deliveries: ["stale-99-3"] },
        "locus[bot]",
      ),
    ).not.toThrow();
    expect(
      codeOf(() =>
        checkDeliveryRecord(
          byHand,
          "stale-99-3",
          { author: "alice", deliveries: ["stale-99-3"] },
          "locus[bot]",
        ),
      ),
    ).toBe("unknown-run");
    expect(
      codeOf(() =>
        checkDeliveryRecord(byHand, "stale-99-3", { author: "locus[bot]", deliveries: [] }, "locus[bot]"),
      ),
    ).toBe("unknown-run");
  });

  it.each([
    ["no run", null],
    ["another workflow", { ...run, path: ".github/workflows/evil.yml" }],
    ["a finished run", { ...run, status: "completed" }],
    ["a run not named by Locus", { ...run, displayTitle: "Deploy" }],
    ["a run dispatched by hand", { ...run, actor: "alice", displayTitle: "Locus issue #3 (made-up)" }],
  ])("refuses %s", (_name, candidate) => {
    expect(codeOf(() => checkRun(candidate, locus))).toBe("unknown-run");
  });

  it("accepts any live run of the stale sweep", () => {
    const stale = {
      ...run,
      path: ".github/workflows/locus-stale.yml",
      displayTitle: "Locus stale",
      actor: "alice",
    };
    expect(checkRun(stale, { ...locus, kind: "stale" })).toEqual({ ok: true });
  });
});

describe("checkPhase", () => {
  it("gives a publish token only to runs that deliver", () => {
    expect(codeOf(() => checkPhase("publish", "locus", run))).toBeUndefined();
    expect(
      codeOf(() => checkPhase("publish", "locus", { ...run, displayTitle: "Locus review #4 (d)" })),
    ).toBeUndefined();
    expect(codeOf(() => checkPhase("agent", "stale", run))).toBeUndefined();
    expect(codeOf(() => checkPhase("publish", "stale", run))).toBe("wrong-phase");
    expect(codeOf(() => checkPhase("publish", "locus", { ...run, displayTitle: "Locus ask #4 (d)" }))).toBe(
      "wrong-phase",
    );
    expect(codeOf(() => checkPhase("publish", "locus", { ...run, displayTitle: "Locus plan #4 (d)" }))).toBe(
      "wrong-phase",
    );
  });
});

describe("phases", () => {
  it("never grant workflows or actions: write, read checks and the run in both, and only publish writes contents", () => {
    for (const phase of ["agent", "publish"] as const) {
      expect(Object.keys(phasePermissions(phase))).not.toContain("workflows");
      expect(phasePermissions(phase)).toMatchObject({ checks: "read", actions: "read" });
    }
    expect(phasePermissions("agent").contents).toBe("read");
    expect(phasePermissions("publish").contents).toBe("write");
  });

  it("parse from the body, anything else being a malformed request", () => {
    expect(parsePhase({ phase: "publish", permissions: { workflows: "write" } })).toBe("publish");
    for (const body of [null, "agent", {}, { phase: "admin" }, [], 3]) {
      expect(codeOf(() => parsePhase(body))).toBe("malformed-request");
    }
  });
});

describe("the rate limiter", () => {
  it("allows `limit` per window per repository, on the clock it is given", () => {
    let now = 0;
    const limiter = createExchangeRateLimiter({ limit: 2, windowMs: 1000, now: () => now });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a"), limiter.take("b")]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    now = 999;
    expect(limiter.take("a")).toBe(false);
    now = 1000;
    expect(limiter.take("a")).toBe(true);
  });
});
