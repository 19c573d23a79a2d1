import { describe, expect, it } from "vitest";
import { createOutputCollector } from "../../../../lib/agent/tools/output-buffer.ts";

const small = { headLines: 2, headChars: 100, tailLines: 2, tailChars: 100 };

describe("createOutputCollector", () => {
  it("keeps short output whole, whatever the chunking", () => {
    const collector = createOutputCollector(small);
    for (const chunk of ["a\n", "b", "\nc\nd", "\n"]) collector.push(chunk);
    expect(collector.text()).toBe("a\nb\nc\nd\n");
  });

  it("keeps head and tail lines and counts the lines cut", () => {
    const collector = createOutputCollector(small);
    for (let line = 1; line <= 10; line += 1) collector.push(`${line}\n`);
    expect(collector.text()).toBe("1\n2\n[… 6 lines cut …]\n9\n10\n");
  });

  it("counts lines dropped while streaming past the tail buffer", () => {
    const collector = createOutputCollector(small);
    for (let line = 1; line <= 5000; line += 1) collector.push(`${line}\n`);
    expect(collector.text()).toBe("1\n2\n[… 4996 lines cut …]\n4999\n5000\n");
  });

  it("cuts by characters when one line is huge", () => {
    const collector = createOutputCollector(small);
    collector.push("y".repeat(1000));
    expect(collector.text()).toBe(`${"y".repeat(100)}\n[… 800 characters cut …]\n${"y".repeat(100)}`);
  });
});
