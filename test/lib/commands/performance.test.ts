import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../lib/commands/parse.ts";

const megabyte = 1_000_000;

/** Backtick runs of lengths 1, 2, 3, … none of which closes: quadratic for a naive code span search. */
function distinctBacktickRuns(size: number): string {
  let text = "";
  for (let length = 1; text.length < size; length += 1) text += `${"`".repeat(length)}a`;
  return text;
}

const bodies: [string, () => string][] = [
  ["one long line", () => "x".repeat(megabyte)],
  ["backticks only", () => "`".repeat(megabyte)],
  ["distinct backtick runs", () => `${distinctBacktickRuns(megabyte)}\n/locus run`],
  ["unclosed comment openers", () => `${"<!--".repeat(megabyte / 4)}\n/locus run`],
  ["many command lines", () => "/locus run\n".repeat(megabyte / 11)],
  ["many unknown verbs", () => "/locus itterate\n".repeat(megabyte / 16)],
  ["a huge goal", () => `/locus plan ${"goal words\n".repeat(megabyte / 11)}`],
  ["a huge order", () => `/locus order ${Array.from({ length: 150_000 }, (_, i) => i + 1).join(" ")}`],
  [
    "a huge approve",
    () => `/locus approve ${Array.from({ length: 150_000 }, (_, i) => 150_000 - i).join(",")}`,
  ],
  ["fences", () => "```\n/locus run\n".repeat(megabyte / 15)],
  ["quotes", () => "> /locus run\n".repeat(megabyte / 13)],
  ["indentation", () => `${" ".repeat(megabyte)}/locus run`],
  ["a long unknown verb", () => `/locus ${"v".repeat(megabyte)}`],
  ["code spans across lines", () => "`a\n/locus run`\n".repeat(megabyte / 14)],
];

describe("parseCommand on 1 MB bodies", () => {
  it.each(bodies)("stays fast: %s", (_name, make) => {
    const body = make();
    const started = performance.now();
    const result = parseCommand(body);
    const elapsed = performance.now() - started;
    expect(["none", "command", "error"]).toContain(result.kind);
    // Generous: CI machines are shared; quadratic work on 1 MB would take far longer.
    expect(elapsed).toBeLessThan(4_000);
  });

  it("bounds what it reports", () => {
    const result = parseCommand("/locus run\n".repeat(100_000));
    expect(result.kind).toBe("command");
    if (result.kind === "command") expect(result.notes).toHaveLength(6);
    const error = parseCommand(`/locus ${"v".repeat(megabyte)}`);
    expect(error.kind).toBe("error");
    if (error.kind === "error") expect(error.message.length).toBeLessThan(200);
  });
});
