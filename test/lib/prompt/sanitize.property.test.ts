/**
 * Property: whatever text comes in (pieces of hiding constructs in any order, any graphemes, any
 * code units), the sanitiser finishes and leaves no HTML comment opener outside code. 2,000
 * documents, so it runs in the property project (vitest.config.ts), not the unit one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointString } from "../../code-point-strings.ts";
import { sanitizeUntrusted } from "../../../lib/prompt/sanitize.ts";
import { outsideCode } from "./outside-code.ts";

/** Pieces of the constructs that hide text, to be put together in any order. */
const pieces = fc.constantFrom(
  "<!--",
  "-->",
  "<",
  "!",
  "-",
  "--",
  ">",
  "\u200B",
  "\u202E",
  "<div hidden>",
  "</div>",
  "![",
  "](",
  ")",
  '"',
  "[",
  "]:",
  "\n",
  "x",
  "`",
  "```\n",
);
/** Documents made of those pieces and arbitrary strings. */
const adversarial = fc.array(fc.oneof(pieces, fc.string()), { maxLength: 40 }).map((parts) => parts.join(""));

describe("sanitizeUntrusted properties", () => {
  it("never throws and never leaves an HTML comment opener outside code", () => {
    fc.assert(
      fc.property(fc.oneof(adversarial, fc.string({ unit: "grapheme" }), codePointString()), (text) => {
        const result = sanitizeUntrusted(text);
        expect(outsideCode(result)).not.toContain("<!--");
      }),
      { numRuns: 2000 },
    );
    // A hang guard, not a speed goal: 2,000 documents take seconds, several times that on a busy machine.
  }, 60_000);
});
