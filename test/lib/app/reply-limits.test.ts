import { describe, expect, it } from "vitest";
import { createReplyLimits, mayReply, refusalKey, REFUSAL_WINDOW_MS } from "../../../lib/app/reply-limits.ts";

describe("reply limits", () => {
  it("allows one reply per key per window, on the injected clock", () => {
    let now = 0;
    const limits = createReplyLimits(() => now);
    const key = refusalKey("octo/demo", 3, "Eve");
    expect(limits.take(key, REFUSAL_WINDOW_MS)).toBe(true);
    now += REFUSAL_WINDOW_MS - 1;
    expect(limits.take(key, REFUSAL_WINDOW_MS)).toBe(false);
    expect(limits.take(refusalKey("octo/demo", 3, "eve"), REFUSAL_WINDOW_MS)).toBe(false);
    expect(limits.take(refusalKey("octo/demo", 4, "eve"), REFUSAL_WINDOW_MS)).toBe(true);
    now += 1;
    expect(limits.take(key, REFUSAL_WINDOW_MS)).toBe(true);
  });

  it("forgets the oldest keys past its capacity", () => {
    const limits = createReplyLimits(() => 0, 2);
    limits.take("a", 10);
    limits.take("b", 10);
    limits.take("c", 10);
    expect(limits.take("a", 10)).toBe(true);
    expect(limits.take("c", 10)).toBe(false);
  });

  it("never limits a context without limits", () => {
    expect(mayReply(undefined, "k", 1)).toBe(true);
  });
});
