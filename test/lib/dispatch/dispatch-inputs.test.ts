import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MODES,
  dispatchInputs,
  dispatchTarget,
  parseRunName,
  runName,
} from "../../../lib/dispatch/dispatch-inputs.ts";

describe("dispatch inputs", () => {
  it("are all strings, with issue numbers space separated and the command trimmed", () => {
    expect(dispatchInputs({ mode: "issue", issues: [3, 5], delivery: "d-1" })).toEqual({
      mode: "issue",
      issue: "3 5",
      pr: "",
      milestone: "",
      command: "",
      delivery: "d-1",
    });
    expect(dispatchInputs({ mode: "iterate", pr: 9, command: "  use tabs \n", delivery: "d-2" })).toEqual(
      expect.objectContaining({ pr: "9", command: "use tabs" }),
    );
  });

  it("targets the milestone, the PR or the issue by mode", () => {
    expect(dispatchTarget({ mode: "sprint", milestone: 4, delivery: "d" })).toBe(4);
    expect(dispatchTarget({ mode: "review", pr: 8, issues: [1], delivery: "d" })).toBe(8);
    expect(dispatchTarget({ mode: "plan", issues: [2], delivery: "d" })).toBe(2);
    expect(dispatchTarget({ mode: "stale", delivery: "d" })).toBeUndefined();
  });
});

describe("run names", () => {
  it("carry mode, target and delivery, and parse back", () => {
    const name = runName("sprint", 4, "72d3162e-cc78-11e3-81ab-4c9367dc0958");
    expect(name).toBe("Locus sprint #4 (72d3162e-cc78-11e3-81ab-4c9367dc0958)");
    expect(parseRunName(name)).toEqual({
      mode: "sprint",
      target: 4,
      delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    });
    expect(parseRunName("Locus issue #3 5 8 (d-9)")).toEqual({ mode: "issue", target: 3, delivery: "d-9" });
    expect(parseRunName(runName("fix-ci", 12, "d-1"))).toEqual({
      mode: "fix-ci",
      target: 12,
      delivery: "d-1",
    });
    expect(parseRunName(runName("rebase", 7, "d-2"))).toEqual({ mode: "rebase", target: 7, delivery: "d-2" });
    expect(parseRunName("Locus stale (stale-99-0)")).toEqual({
      mode: "stale",
      target: undefined,
      delivery: "stale-99-0",
    });
  });

  it("reject other workflows' titles", () => {
    for (const title of [
      "CI",
      "Locus deploy #3 (x)",
      "Locus fix-ci-now #3 (x)",
      "Locus issue #3",
      "Locus issue #0 (d)",
      "fix: Locus issue #3 (d)",
    ]) {
      expect(parseRunName(title)).toBeUndefined();
    }
  });

  it("round-trip for any mode, target and delivery id (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MODES),
        fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: undefined }),
        fc.stringMatching(/^[A-Za-z0-9._-]{1,60}$/),
        (mode, target, delivery) => {
          expect(parseRunName(runName(mode, target, delivery))).toEqual({ mode, target, delivery });
        },
      ),
    );
  });
});
