import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../lib/commands/parse.ts";

const megabyte = 1_000_000;

/** Backtick runs of lengths 1, 2, 3, … none of which closes: quadratic for a naive code span search. */
function distinctBacktickRuns(size: number): string {
  let text = "";
  for (let length = 1; text.length < size; length += 1) text += `${"`".repeat(length)}a`;
  return text;
}

const bodies: [string, () => string, "none" | "command" | "error"][] = [
  ["one long line", () => "x".repeat(megabyte), "none"],
  ["backticks only", () => "`".repeat(megabyte), "none"],
  ["distinct backtick runs", () => `${distinctBacktickRuns(megabyte)}\n/locus run`, "command"],
  ["unclosed comment openers", () => `${"<!--".repeat(megabyte / 4)}\n/locus run`, "none"],
  ["many command lines", () => "/locus run\n".repeat(megabyte / 11), "command"],
  ["many unknown verbs", () => "/locus itterate\n".repeat(megabyte / 16), "error"],
  ["a huge goal", () => `/locus plan ${"goal words\n".repeat(megabyte / 11)}`, "command"],
  [
    "a huge order",
    () => `/locus order ${Array.from({ length: 150_000 }, (_, i) => i + 1).join(" ")}`,
    "command",
  ],
  [
    "a huge approve",
    () => `/locus approve ${Array.from({ length: 150_000 }, (_, i) => 150_000 - i).join(",")}`,
    "command",
  ],
  ["fences", () => "```\n/locus run\n".repeat(megabyte / 15), "command"],
  ["quotes", () => "> /locus run\n".repeat(megabyte / 13), "none"],
  ["indentation", () => `${" ".repeat(megabyte)}/locus run`, "none"],
  ["a long unknown verb", () => `/locus ${"v".repeat(megabyte)}`, "error"],
  ["code spans across lines", () => "`a\n/locus run`\n".repeat(megabyte / 14), "none"],
];

describe("parseCommand on 1 MB bodies", () => {
  // Speed is measured in bench/, not asserted here; a quadratic parser would blow the test timeout.
  it.each(bodies)("parses %s", (_name, make, kind) => {
    expect(parseCommand(make()).kind).toBe(kind);
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
