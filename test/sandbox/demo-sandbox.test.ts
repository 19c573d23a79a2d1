/** Whether `npm run demo` runs its agent in the sandbox, says why not, or stops. */
import { describe, expect, it } from "vitest";
import { demoSandbox } from "../../sandbox/demo-sandbox.ts";

const missing = { ok: false as const, reason: "bubblewrap (bwrap) is not installed" };
const present = { ok: true as const, bwrap: "/usr/bin/bwrap" };

describe("demoSandbox", () => {
  it("uses bubblewrap wherever it works", () => {
    expect(demoSandbox({ probe: present, realModel: true, switchValue: undefined })).toEqual({
      kind: "bubblewrap",
    });
  });

  it("runs the scripted agent without a sandbox, saying why and how to get one", () => {
    const answer = demoSandbox({ probe: missing, realModel: false, switchValue: undefined });
    expect(answer.kind).toBe("off");
    expect(answer.kind === "off" && answer.message).toMatch(
      /^No sandbox on this machine: bubblewrap \(bwrap\) is not installed\. .*sandbox OFF.*apt-get install -y bubblewrap socat/,
    );
  });

  it("stops a real model without a sandbox, unless LOCUS_DEMO_SANDBOX=off", () => {
    const stop = demoSandbox({ probe: missing, realModel: true, switchValue: undefined });
    expect(stop.kind).toBe("stop");
    expect(stop.kind === "stop" && stop.message).toMatch(
      /install bubblewrap and socat.*LOCUS_DEMO_SANDBOX=off npm run demo/,
    );
    expect(demoSandbox({ probe: missing, realModel: true, switchValue: "off" }).kind).toBe("off");
    expect(demoSandbox({ probe: present, realModel: false, switchValue: "OFF" }).kind).toBe("off");
  });
});
