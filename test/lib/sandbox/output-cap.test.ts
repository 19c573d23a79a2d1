import { describe, expect, it } from "vitest";
import { createOutputCap } from "../../../lib/sandbox/output-cap.ts";

function capped(head: number, tail: number, pushes: [1 | 2, string][]) {
  const seen: [1 | 2, string][] = [];
  const cap = createOutputCap(head, tail, (stream, chunk) => seen.push([stream, chunk.toString()]));
  for (const [stream, text] of pushes) cap.push(stream, Buffer.from(text));
  const dropped = cap.end();
  return { seen, dropped };
}

describe("createOutputCap", () => {
  it("passes everything on when it fits", () => {
    expect(
      capped(10, 10, [
        [1, "abc"],
        [2, "de"],
      ]),
    ).toEqual({
      seen: [
        [1, "abc"],
        [2, "de"],
      ],
      dropped: 0,
    });
  });

  it("keeps the head as it comes and the tail at the end, counting the middle", () => {
    const { seen, dropped } = capped(3, 4, [
      [1, "abcdef"],
      [2, "ghij"],
      [1, "klm"],
    ]);
    expect(seen).toEqual([
      [1, "abc"],
      [2, "j"],
      [1, "klm"],
    ]);
    expect(dropped).toBe(6);
  });

  it("keeps no tail when asked for none", () => {
    expect(capped(2, 0, [[1, "abcdef"]])).toEqual({ seen: [[1, "ab"]], dropped: 4 });
  });
});
