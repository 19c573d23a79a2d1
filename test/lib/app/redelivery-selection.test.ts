import { describe, expect, it } from "vitest";
import {
  selectRedeliveries,
  type HookDelivery,
  type RedeliveryWindow,
} from "../../../lib/app/redelivery-selection.ts";

const START = Date.parse("2026-11-24T12:00:00Z");
const minutes = (n: number): string => new Date(START + n * 60_000).toISOString();

let nextId = 1;
function attempt(overrides: Partial<HookDelivery> & Pick<HookDelivery, "guid">): HookDelivery {
  return {
    id: nextId++,
    deliveredAt: minutes(-1),
    statusCode: 200,
    event: "issue_comment",
    action: "created",
    redelivery: false,
    ...overrides,
  };
}

const window: RedeliveryWindow = {
  failedSince: new Date(START - 60 * 60_000),
  actsOn: (event, action) => `${event}.${action ?? ""}` !== "issues.opened",
  requested: new Set(),
};
const atStart: RedeliveryWindow = {
  ...window,
  acknowledgedBetween: { from: new Date(START - 10 * 60_000), to: new Date(START) },
};

describe("selectRedeliveries", () => {
  it("redelivers a failed delivery (an error status, or no answer) in the window", () => {
    const deliveries = [
      attempt({ guid: "refused", statusCode: 0 }),
      attempt({ guid: "error", statusCode: 500 }),
      attempt({ guid: "redirect", statusCode: 302 }),
      attempt({ guid: "fine", statusCode: 202 }),
    ];
    expect(selectRedeliveries(deliveries, window).map((r) => [r.guid, r.reason])).toEqual([
      ["refused", "failed"],
      ["error", "failed"],
      ["redirect", "failed"],
    ]);
  });

  it("leaves failures older than the window alone", () => {
    const deliveries = [attempt({ guid: "old", statusCode: 0, deliveredAt: minutes(-61) })];
    expect(selectRedeliveries(deliveries, window)).toEqual([]);
  });

  it("asks once per GUID, for its newest attempt, and never for one already redelivered or requested", () => {
    const first = attempt({ guid: "twice", statusCode: 502, deliveredAt: minutes(-5) });
    const second = attempt({ guid: "twice", statusCode: 0, deliveredAt: minutes(-4) });
    const deliveries = [
      second,
      first,
      attempt({ guid: "redelivered", statusCode: 0, deliveredAt: minutes(-3) }),
      attempt({ guid: "redelivered", statusCode: 0, deliveredAt: minutes(-2), redelivery: true }),
      attempt({ guid: "asked", statusCode: 0 }),
    ];
    const selected = selectRedeliveries(deliveries, { ...window, requested: new Set(["asked"]) });
    expect(selected).toEqual([{ deliveryId: second.id, guid: "twice", reason: "failed" }]);
  });

  it("skips a GUID that succeeded on some attempt", () => {
    const deliveries = [
      attempt({ guid: "recovered", statusCode: 500, deliveredAt: minutes(-30) }),
      attempt({ guid: "recovered", statusCode: 200, deliveredAt: minutes(-29) }),
    ];
    expect(selectRedeliveries(deliveries, window)).toEqual([]);
  });

  it("on start, also redelivers acknowledged events Locus acts on from just before the start", () => {
    const run = attempt({ guid: "run", deliveredAt: minutes(-2) });
    const deliveries = [
      run,
      attempt({ guid: "opened", event: "issues", action: "opened", deliveredAt: minutes(-2) }),
      attempt({ guid: "too-early", deliveredAt: minutes(-11) }),
      attempt({ guid: "after-start", deliveredAt: minutes(1) }),
      attempt({ guid: "done-again", deliveredAt: minutes(-3), redelivery: true }),
    ];
    expect(selectRedeliveries(deliveries, atStart)).toEqual([
      { deliveryId: run.id, guid: "run", reason: "acknowledged-before-start" },
    ]);
    expect(selectRedeliveries(deliveries, window)).toEqual([]);
  });

  it("orders the redeliveries oldest event first", () => {
    const deliveries = [
      attempt({ guid: "c", statusCode: 0, deliveredAt: minutes(-1) }),
      attempt({ guid: "b", deliveredAt: minutes(-2) }),
      attempt({ guid: "a", statusCode: 500, deliveredAt: minutes(-3) }),
    ];
    expect(selectRedeliveries(deliveries, atStart).map((r) => r.guid)).toEqual(["a", "b", "c"]);
  });
});
