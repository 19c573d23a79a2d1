import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_STATE,
  hasDelivery,
  isStatusComment,
  readStatusState,
  renderStatusComment,
  withDelivery,
} from "../../../lib/status/status-comment.ts";

describe("status comment", () => {
  it("renders a headline and facts, and keeps its state in a hidden marker", () => {
    const state = {
      deliveries: ["d1"],
      attempts: 2,
      runUrl: "https://github.com/o/r/actions/runs/7",
      pr: 12,
      costUsd: 0.5,
    };
    const body = renderStatusComment(
      { headline: "PR #12 opened", details: [{ label: "Changed", line: "3 files changed" }] },
      state,
    );
    expect(isStatusComment(body)).toBe(false);
    expect(isStatusComment(`<!-- locus:status -->\n${body}`)).toBe(true);
    expect(body).toContain("**Locus:** PR #12 opened\n\n- **Changed:** 3 files changed");
    expect(body).toContain(
      "[workflow run](https://github.com/o/r/actions/runs/7) · PR #12 · cost $0.5000 · attempt 2",
    );
    expect(readStatusState(body)).toEqual(state);
  });

  it("reads a missing or damaged marker as empty", () => {
    expect(readStatusState(undefined)).toEqual(EMPTY_STATE);
    expect(readStatusState("hello")).toEqual(EMPTY_STATE);
    expect(readStatusState("<!-- locus:state {not json} -->")).toEqual(EMPTY_STATE);
    expect(readStatusState('<!-- locus:state {"attempts":-1} -->')).toEqual(EMPTY_STATE);
  });

  it("records deliveries once and keeps only the newest fifty", () => {
    let state = EMPTY_STATE;
    for (let i = 0; i < 60; i++) state = withDelivery(state, `d${i}`);
    expect(withDelivery(state, "d59")).toBe(state);
    expect(state.deliveries).toHaveLength(50);
    expect(hasDelivery(state, "d10")).toBe(true);
    expect(hasDelivery(state, "d9")).toBe(false);
  });

  it("survives any text in its state, including comment terminators (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 5 }), (error, deliveries) => {
        const state = { deliveries, attempts: 1, lastError: error };
        const body = renderStatusComment({ headline: "Failed" }, state);
        expect(readStatusState(body)).toEqual(state);
        expect(body.split("-->")).toHaveLength(2);
      }),
    );
  });
});
