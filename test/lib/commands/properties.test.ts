import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointString } from "../../code-point-strings.ts";
import type { LocusCommand, ParseResult } from "../../../lib/commands/command.ts";
import { splitLines } from "../../../lib/commands/command-lines.ts";
import { formatCommand } from "../../../lib/commands/format.ts";
import { parseCommand } from "../../../lib/commands/parse.ts";

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  codePointString(),
  // Lone surrogates and other code units that are not whole characters.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
);

// Fragments that drive the Markdown scanner and the argument parsers through their states.
const markdownish = fc
  .array(
    fc.constantFrom(
      "/locus",
      "/LOCUS",
      " run",
      " plan",
      " approve",
      " order",
      " ask",
      " iterate",
      " itterate",
      " 1",
      ",2",
      " #3",
      " 0",
      "`",
      "``",
      "```",
      "~~~",
      "> ",
      "<!--",
      "-->",
      "- ",
      "1. ",
      "# ",
      "\\",
      "\n",
      "\r\n",
      "\r",
      "\t",
      "    ",
      " ",
      "x",
      "é",
      "\u{1F600}",
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

/** A free-text argument: trimmed, no line breaks, as one line of a comment carries. */
const oneLine = anyText.map((text) => text.replace(/[\r\n]/g, " ").trim());

/** Lines below a goal or question; those that would start a new command (and so end it) are dropped. */
const laterLines = fc
  .oneof(anyText, markdownish)
  .map((text) => splitLines(text).filter((line) => !/^\s*\/locus(?:\s|$)/i.test(line)));

const multiLine = fc
  .tuple(oneLine, laterLines)
  .map(([first, rest]) => [first, ...rest].join("\n").trim())
  .filter((text) => text !== "");

const permutation = fc.integer({ min: 1, max: 12 }).chain((k) =>
  fc.shuffledSubarray(
    Array.from({ length: k }, (_, i) => i + 1),
    { minLength: k, maxLength: k },
  ),
);

const wellFormedCommand: fc.Arbitrary<LocusCommand> = fc.oneof(
  fc.constantFrom<LocusCommand>(
    { name: "run" },
    { name: "review" },
    { name: "status" },
    { name: "help" },
    { name: "cancel" },
    { name: "approve" },
  ),
  oneLine.map((note): LocusCommand => ({ name: "iterate", note })),
  multiLine.map((goal): LocusCommand => ({ name: "plan", goal })),
  multiLine.map((question): LocusCommand => ({ name: "ask", question })),
  permutation.map((sequence): LocusCommand => ({ name: "approve", sequence })),
  fc
    .uniqueArray(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 12 })
    .map((issues): LocusCommand => ({ name: "order", issues })),
);

const bodyWithCommands = fc
  .array(fc.oneof(wellFormedCommand.map(formatCommand), anyText, markdownish), { maxLength: 8 })
  .map((parts) => parts.join("\n"));

/** What every result must satisfy, whatever the input. */
function expectWellFormed(result: ParseResult): void {
  switch (result.kind) {
    case "none":
      return;
    case "error":
      expect(result.message).not.toBe("");
      return;
    case "command": {
      const { command } = result;
      if (command.name === "plan") expect(command.goal).not.toBe("");
      if (command.name === "ask") expect(command.question).not.toBe("");
      if (command.name === "order") {
        expect(command.issues.length).toBeGreaterThan(0);
        expect(new Set(command.issues).size).toBe(command.issues.length);
      }
      if (command.name === "approve" && command.sequence !== undefined) {
        const sorted = [...command.sequence].sort((a, b) => a - b);
        expect(sorted).toStrictEqual(sorted.map((_, i) => i + 1));
      }
      expect(() => formatCommand(command)).not.toThrow();
    }
  }
}

/** A fence no line of `text` can close: longer than any backtick run in it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

describe("parseCommand properties", () => {
  it("never throws and always returns a well-formed result", () => {
    fc.assert(
      fc.property(fc.oneof(anyText, markdownish, bodyWithCommands), (body) => {
        expectWellFormed(parseCommand(body));
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on large random inputs", () => {
    fc.assert(
      fc.property(codePointString({ minLength: 50_000, maxLength: 100_000 }), (body) => {
        expectWellFormed(parseCommand(body));
      }),
      { numRuns: 5 },
    );
  });

  it("round-trips every well-formed command through formatCommand", () => {
    fc.assert(
      fc.property(wellFormedCommand, (command) => {
        expect(parseCommand(formatCommand(command))).toStrictEqual({ kind: "command", command, notes: [] });
      }),
      { numRuns: 1000 },
    );
  });

  it("round-trips after prose, in any letter case and with CRLF line endings", () => {
    fc.assert(
      fc.property(wellFormedCommand, fc.boolean(), (command, upper) => {
        const text = formatCommand(command);
        const [first = "", ...rest] = text.split("\n");
        const verbEnd = first.indexOf(" ", "/locus ".length);
        const head = verbEnd === -1 ? first : first.slice(0, verbEnd);
        const cased =
          (upper ? head.toUpperCase() : head.replace(/^\/locus/, "/Locus")) + first.slice(head.length);
        const body = ["Thanks, looks good.", "", cased, ...rest].join("\r\n");
        expect(parseCommand(body)).toStrictEqual({ kind: "command", command, notes: [] });
      }),
      { numRuns: 500 },
    );
  });

  it("never sees a command inside a fenced code block", () => {
    fc.assert(
      fc.property(
        fc.oneof(bodyWithCommands, anyText, markdownish),
        fc.constantFrom("", "ts", "md"),
        (body, info) => {
          const fence = fenceFor(body);
          expect(parseCommand(`${fence}${info}\n${body}\n${fence}`)).toStrictEqual({ kind: "none" });
          expect(parseCommand(`Intro\n${fence}${info}\n${body}`)).toStrictEqual({ kind: "none" });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never sees a command in a quote", () => {
    fc.assert(
      fc.property(
        fc.oneof(bodyWithCommands, anyText, markdownish),
        fc.constantFrom(">", "> ", ">> ", "  > > "),
        (body, marker) => {
          const quoted = splitLines(body)
            .map((line) => `${marker}${line}`)
            .join("\n");
          expect(parseCommand(quoted)).toStrictEqual({ kind: "none" });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never sees a command in an HTML comment", () => {
    fc.assert(
      fc.property(fc.oneof(bodyWithCommands, anyText, markdownish), (body) => {
        const inner = body.replaceAll("-->", "- ->");
        expect(parseCommand(`<!--\n${inner}\n-->`)).toStrictEqual({ kind: "none" });
      }),
      { numRuns: 500 },
    );
  });

  it("never sees a one-line command in inline code", () => {
    fc.assert(
      fc.property(wellFormedCommand, (command) => {
        const text = formatCommand(command);
        fc.pre(!text.includes("\n") && !text.includes("`"));
        expect(parseCommand(`\`${text}\``)).toStrictEqual({ kind: "none" });
        expect(parseCommand(`See\n\`${text}\` above`)).toStrictEqual({ kind: "none" });
      }),
      { numRuns: 300 },
    );
  });
});
