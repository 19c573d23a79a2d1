import { describe, expect, it } from "vitest";
import { classifyActor, mayTriggerWork, refusalMessage } from "../../../lib/trust/actor-policy.ts";
import { isActiveSprint } from "../../../lib/sprint/activation.ts";

describe("actor policy", () => {
  it("lets only write, maintain and admin trigger work", () => {
    expect(mayTriggerWork("admin")).toBe(true);
    expect(mayTriggerWork("maintain")).toBe(true);
    expect(mayTriggerWork("write")).toBe(true);
    expect(mayTriggerWork("triage")).toBe(false);
    expect(mayTriggerWork("read")).toBe(false);
    expect(mayTriggerWork("none")).toBe(false);
  });

  it("never lets Locus trigger itself, and ignores bots unless allowed", () => {
    const self = ["locus[bot]"];
    expect(classifyActor({ login: "Locus[bot]", type: "Bot" }, self, [])).toEqual(
      expect.objectContaining({ kind: "self" }),
    );
    expect(classifyActor({ login: "renovate[bot]", type: "Bot" }, self, [])).toEqual(
      expect.objectContaining({ kind: "ignored-bot" }),
    );
    expect(classifyActor({ login: "renovate[bot]", type: "Bot" }, self, ["Renovate[bot]"])).toEqual({
      kind: "allowed-bot",
    });
    expect(classifyActor({ login: "octocat", type: "User" }, self, [])).toEqual({ kind: "person" });
  });

  it("refuses with a short, actionable message", () => {
    expect(refusalMessage("eve", "read")).toContain(
      "@eve Locus only takes work from people with write access",
    );
  });
});

describe("sprint activation", () => {
  it("needs a line `locus: active` in the milestone description", () => {
    expect(isActiveSprint("Goals\n\nlocus: active\n")).toBe(true);
    expect(isActiveSprint("  Locus:Active  ")).toBe(true);
    expect(isActiveSprint("locus: active soon")).toBe(false);
    expect(isActiveSprint("not locus: active")).toBe(false);
    expect(isActiveSprint(null)).toBe(false);
  });
});
