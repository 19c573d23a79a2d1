import { describe, expect, it } from "vitest";
import { createAcpCostMeter, UNREPORTED_COST_GRACE_CALLS } from "../../../../lib/agent/runners/acp-cost.ts";

describe("the ACP cost meter", () => {
  it("stops an unreported agent only when it starts a tool call past its grace under a cost limit", () => {
    const meter = createAcpCostMeter({ maxCostUsd: 5 });
    for (let call = 1; call <= UNREPORTED_COST_GRACE_CALLS; call += 1)
      expect(meter.toolCallStarted(call)).toEqual({ addUsd: 0 });

    const next = meter.toolCallStarted(UNREPORTED_COST_GRACE_CALLS + 1);

    expect("stop" in next && next.stop).toContain("in its first 3 tool calls");
    expect("stop" in next && next.stop).toContain("cost limit of $5.00");
    expect(meter.total()).toBe(0);
  });

  it("never stops an agent without a cost limit, nor one that reported a cost", () => {
    const unlimited = createAcpCostMeter({});
    expect(unlimited.toolCallStarted(50)).toEqual({ addUsd: 0 });

    const reporting = createAcpCostMeter({ maxCostUsd: 5 });
    expect(reporting.reported(0.1)).toBeCloseTo(0.1);
    expect(reporting.toolCallStarted(50)).toEqual({ addUsd: 0 });
    expect(reporting.reported(0.25)).toBeCloseTo(0.15);
    expect(reporting.total()).toBe(0.25);
    expect(reporting.warning()).toBeUndefined();
  });

  it("counts the configured price per tool call until a real report replaces the estimate", () => {
    const meter = createAcpCostMeter({ costPerToolCallUsd: 0.5, maxCostUsd: 5 });
    expect(meter.toolCallStarted(1)).toEqual({ addUsd: 0.5 });
    expect(meter.toolCallStarted(2)).toEqual({ addUsd: 0.5 });
    expect(meter.total()).toBe(1);
    expect(meter.warning()).toContain("counted $0.5 per tool call");

    expect(meter.reported(0.3)).toBeCloseTo(-0.7);

    expect(meter.total()).toBe(0.3);
    expect(meter.toolCallStarted(3)).toEqual({ addUsd: 0 });
    expect(meter.warning()).toBeUndefined();
  });
});
