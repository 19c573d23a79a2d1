import { describe, expect, it } from "vitest";
import { NO_CI_FIX, decideAutoFix, manualFix } from "../../../lib/ci/auto-fix-policy.ts";

const at = "2026-11-26T10:00:00Z";
const facts = (headSha: string, humanActed = false) => ({ headSha, humanActed, maxAttempts: 2, at });

describe("decideAutoFix", () => {
  it("never starts a second round for a head it already tried", () => {
    const first = decideAutoFix(NO_CI_FIX, facts("a"));
    if (first.action !== "dispatch") throw new Error("expected a dispatch");
    expect(decideAutoFix(first.next, facts("a", true))).toEqual({ action: "skip", reason: "same-head" });
  });

  it("allows maxAttempts rounds in a row, then stops and notifies once", () => {
    let state = NO_CI_FIX;
    const actions: string[] = [];
    for (const head of ["a", "b", "c", "d"]) {
      const decision = decideAutoFix(state, facts(head));
      actions.push(decision.action === "stop" ? `stop${decision.notify ? "+notify" : ""}` : decision.action);
      if (decision.action !== "skip") state = decision.next;
    }
    expect(actions).toEqual(["dispatch", "dispatch", "stop+notify", "stop"]);
  });

  it("starts counting again after a human push or comment", () => {
    const stopped = { heads: ["a", "b"], streak: 2, stopped: true };
    const decision = decideAutoFix(stopped, facts("c", true));
    expect(decision).toMatchObject({ action: "dispatch", next: { streak: 1, stopped: false } });
  });

  it("a round by hand resets the streak and remembers the head", () => {
    expect(manualFix({ heads: ["a"], streak: 2, stopped: true }, "b", at)).toEqual({
      heads: ["a", "b"],
      streak: 0,
      lastAt: at,
      stopped: false,
    });
  });
});
