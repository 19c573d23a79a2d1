import { describe, expect, it } from "vitest";
import { thousands } from "../../../lib/render/thousands.ts";

describe("thousands", () => {
  it("writes whole numbers as en-US does", () => {
    for (const n of [0, 7, 999, 1_000, 12_345, 999_999, 1_000_000, -1_234_567, Number.MAX_SAFE_INTEGER]) {
      expect(thousands(n)).toBe(n.toLocaleString("en-US"));
    }
  });

  it("leaves fractions to the locale's own formatting", () => {
    expect(thousands(1234.5)).toBe("1,234.5");
  });
});
