/**
 * Hostile comments through the app (docs/reliability.md): seeded hostile `/locus` comments, each on its own issue,
 * delivered signed by the simulator to the real app server. The app must
 * never answer a delivery with anything but 2xx, reply at most once per
 * comment, dispatch a valid `/locus run` from a writer exactly once and
 * anything else (a reader's, a look-alike, one hidden in code or a quote)
 * never, and no shell payload may ever run. The 10,000-comment run is
 * `npm run bench -- reliability`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppHarness, type AppHarness } from "../app/harness.ts";
import { canaryPath, judge, postCases, sampleCases } from "./command-fuzz.ts";

const COMMENTS = 60;
const SEED = 20_261_124;

let h: AppHarness;
let dir: string;

beforeAll(async () => {
  h = await startAppHarness();
  h.runsConclude("hold");
  dir = await mkdtemp(path.join(tmpdir(), "locus-fuzz-"));
});

afterAll(async () => {
  // The held runs end as cancelled ones would, so that the app and the simulator can settle.
  const alice = h.sim.store.users.get("alice");
  for (const run of h.repo.repo.runs) if (alice) h.sim.runs.cancel(h.repo.repo, run.id, alice);
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

describe("fuzzed /locus comments through the app", () => {
  it(`${COMMENTS} seeded comments: no 5xx, at most one reply each, run dispatched exactly when valid`, async () => {
    const canary = canaryPath(dir);
    const cases = sampleCases(COMMENTS, SEED, canary);
    const posted = await postCases(h.sim, h.webhookUrl, [h.repo], cases, 10);
    await h.settleWebhooks();

    const verdict = judge(h.sim, cases, posted, canary);
    expect(verdict.deliveries).toBe(COMMENTS);
    expect(verdict.failedDeliveries).toBe(0);
    expect(verdict.wrongDispatch).toBe(0);
    expect(verdict.repliedTwice).toBe(0);
    expect(verdict.tamperedDispatched).toBe(0);
    expect(verdict.shellReached).toBe(false);
    expect(verdict.dispatches).toBe(verdict.expectedDispatches);
    // The sample really exercises both sides: valid runs and tampered look-alikes.
    expect(verdict.expectedDispatches).toBeGreaterThan(5);
    expect(cases.filter((c) => c.tampered).length).toBeGreaterThan(12);
  }, 120_000);
});
