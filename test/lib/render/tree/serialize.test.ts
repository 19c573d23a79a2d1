/**
 * The serialiser tries only the escaping rules whose character occurs in a piece of text
 * (`lib/render/tree/serialize.ts`), a shortcut that must change nothing: for text with nothing to
 * defuse, in every kind of block it can sit in, its Markdown is exactly what
 * `mdast-util-to-markdown` writes when it tries every rule.
 */
import fc from "fast-check";
import type { Root } from "mdast";
import { gfmToMarkdown } from "mdast-util-gfm";
import { toMarkdown, type Options } from "mdast-util-to-markdown";
import { describe, expect, it } from "vitest";
import {
  blockquote,
  emphasis,
  heading,
  list,
  paragraph,
  root,
  table,
} from "../../../../lib/render/tree/nodes.ts";
import { toGitHubMarkdown } from "../../../../lib/render/tree/serialize.ts";

const EVERY_RULE: Options = {
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  bullet: "-",
  emphasis: "_",
  rule: "-",
  fences: true,
  listItemIndent: "one",
};

/** Characters Markdown gives a meaning somewhere, blanks and line breaks, and plain letters. */
const MARKDOWN_CHARACTERS = [..."*_`#|\\[]()<>!&~-+=:.;/?@^$%'\" \n\t\r0123456789aAxé\u00a0"];
/** No `@` before a name and no closing keyword, so the defuser leaves the text as it is. */
const inertText = fc
  .array(fc.oneof(fc.constantFrom(...MARKDOWN_CHARACTERS), fc.string({ maxLength: 2 })), { maxLength: 30 })
  .map((parts) => parts.join(""))
  .filter((text) => !/@|clos|fix|resolv/i.test(text));

const PLACES: ReadonlyArray<(text: string) => Root> = [
  (text) => root(paragraph(text)),
  (text) => root(paragraph("a", emphasis(text), "b")),
  (text) => root(heading(2, text)),
  (text) => root(blockquote(paragraph(text))),
  (text) => root(list([[text], [text, "x"]])),
  (text) =>
    root(
      table(
        [null, null],
        [
          [["h"], [text]],
          [[text], ["c"]],
        ],
      ),
    ),
];

describe("toGitHubMarkdown's escaping", () => {
  it("escapes text exactly as mdast-util-to-markdown does when it tries every rule", () => {
    fc.assert(
      fc.property(inertText, fc.constantFrom(...PLACES), (text, place) => {
        expect(toGitHubMarkdown(place(text))).toBe(toMarkdown(place(text), EVERY_RULE).trimEnd());
      }),
      { numRuns: 600 },
    );
  });

  it("still escapes what would otherwise be Markdown", () => {
    expect(toGitHubMarkdown(root(paragraph("*a* [b](c) <i> # d | e")))).toBe(
      "\\*a\\* \\[b]\\(c) \\<i> # d | e",
    );
  });
});
