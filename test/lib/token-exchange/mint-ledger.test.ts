import { describe, expect, it } from "vitest";
import { createMintLedger } from "../../../lib/token-exchange/mint-ledger.ts";
import { Refusal } from "../../../lib/token-exchange/refusal.ts";

const run = { runId: "7", runAttempt: "1", phase: "publish" } as const;

function refusalOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof Refusal ? `${error.status} ${error.code}` : "not a refusal";
  }
}

describe("the mint ledger", () => {
  it("refuses a second request while the first is still being minted, and frees the phase if minting failed", () => {
    const ledger = createMintLedger({ now: () => 0 });
    const first = ledger.reserve(run);
    expect(refusalOf(() => ledger.reserve(run))).toBe("409 already-minted");
    first.failed();
    expect(refusalOf(() => ledger.reserve(run))).toBeUndefined();
  });

  it("keeps phases, attempts and runs apart", () => {
    const ledger = createMintLedger({ now: () => 0 });
    ledger.reserve(run).minted(new Date(3_600_000).toISOString());
    for (const other of [
      { ...run, phase: "agent" as const },
      { ...run, runAttempt: "2" },
      { ...run, runId: "8" },
    ])
      expect(refusalOf(() => ledger.reserve(other))).toBeUndefined();
  });

  it("accepts an OIDC token once, and forgets it once it has expired", () => {
    let now = 0;
    const ledger = createMintLedger({ now: () => now });
    ledger.useIdToken("jti-1", 300);
    expect(refusalOf(() => ledger.useIdToken("jti-1", 300))).toBe("409 already-minted");
    expect(refusalOf(() => ledger.useIdToken("jti-2", 300))).toBeUndefined();
    now = 400_000;
    expect(refusalOf(() => ledger.useIdToken("jti-1", 300))).toBeUndefined();
  });
});
