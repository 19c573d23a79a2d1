/**
 * Half of the published-text property: hostile text in every other publishing slot (the first, third, … of
 * `published-text-check.ts`), read back as GitHub would, has no live mention, closing keyword but the
 * task's own, or outside image. The other half runs in published-text-other.property.test.ts, so the
 * 10,000 documents split over two workers.
 */
import { describe, it } from "vitest";
import { assertPublishedTextInert, slotsOfHalf } from "./published-text-check.ts";

describe("published text", () => {
  // 5,000 small documents (each published, then parsed back with micromark): about 10 s of CPU here, so a generous timeout for a loaded machine.
  it(
    "has no live mention, closing keyword or outside image from untrusted text",
    { timeout: 300_000 },
    () => {
      assertPublishedTextInert(slotsOfHalf(0), 5_000);
    },
  );
});
