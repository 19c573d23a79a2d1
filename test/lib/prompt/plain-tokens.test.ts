/**
 * The sanitiser's parser builds tokens and inline states with plain assignments instead of
 * markdown-it's own constructors. The rules it runs see the same objects only if the fields are
 * the same: these checks compare them with the stock classes, so a markdown-it upgrade that adds,
 * drops or reorders a field fails here rather than changing what the sanitiser reads.
 */
import markdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import {
  PlainBlockState,
  PlainInlineState,
  PlainToken,
  usePlainTokens,
} from "../../../lib/prompt/plain-tokens.ts";

const { StateBlock, StateInline, Token } = markdownIt;

/** Every block and inline construct markdown-it reads by default, plus raw HTML and a table. */
const DOCUMENT = [
  "# Heading with `code` and *emphasis*",
  "",
  "Setext heading",
  "==============",
  "",
  'A paragraph with **strong**, _emphasis_, ~~struck~~, a [link](https://example.com "title"),',
  "an ![image *alt*](a.png), <span class=x>inline html</span>, an <https://auto.link>, `code`,",
  "&amp; entities &copy;, a hard  ",
  "break and a \\* escape, [a reference][ref] and [ref].",
  "",
  "> a quote",
  "> - with a list",
  ">   1. nested `deep`",
  "",
  "- [ ] item one",
  "- item **two**",
  "",
  "```ts",
  "const fenced = true;",
  "```",
  "",
  "    indented code",
  "",
  "| left | right |",
  "| :--- | ----: |",
  "| `a` \\| b | *c* |",
  "",
  "<details><summary>Block html</summary>",
  "",
  "inside",
  "",
  "</details>",
  "",
  "***",
  "",
  '[ref]: https://example.com/ref "Ref title"',
].join("\n");

describe("plain tokens", () => {
  it("have exactly the stock token's own fields, in order, with the same values", () => {
    const stock = new Token("paragraph_open", "p", 1);
    const plain = new PlainToken("paragraph_open", "p", 1);
    expect(Object.keys(plain)).toEqual(Object.keys(stock));
    expect({ ...plain }).toEqual({ ...stock });
  });

  it("are Tokens, with the stock methods", () => {
    const plain = new PlainToken("link_open", "a", 1);
    expect(plain).toBeInstanceOf(Token);
    plain.attrSet("href", "https://example.com");
    plain.attrJoin("class", "one");
    plain.attrJoin("class", "two");
    expect(plain.attrGet("href")).toBe("https://example.com");
    expect(plain.attrGet("class")).toBe("one two");
    expect(plain.attrIndex("missing")).toBe(-1);
  });

  it("come with an inline state that has exactly the stock inline state's own fields", () => {
    const parser = markdownIt();
    const env = {};
    const stock = new StateInline("a *b*", parser, env, []);
    const plain = new PlainInlineState("a *b*", parser, env, []);
    expect(Object.keys(plain)).toEqual(Object.keys(stock));
    expect({ ...plain }).toEqual({ ...stock });
    expect(plain).toBeInstanceOf(StateInline);
    expect(plain.scanDelims(2, true)).toEqual(stock.scanDelims(2, true));
  });

  it("come with a block state that is the stock one but for the tokens it makes", () => {
    const parser = markdownIt();
    const stock = new StateBlock("a\n\nb", parser, {}, []);
    const plain = new PlainBlockState("a\n\nb", parser, {}, []);
    expect({ ...plain }).toEqual({ ...stock });
    stock.push("paragraph_open", "p", 1);
    plain.push("paragraph_open", "p", 1);
    expect(plain.tokens[0]).toBeInstanceOf(PlainToken);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(stock));
  });

  it("make a parser give the same tokens and the same HTML as a stock one", () => {
    for (const options of [{}, { html: true, linkify: true, typographer: true }]) {
      const stock = markdownIt(options);
      const plain = markdownIt(options);
      usePlainTokens(plain);
      const tokens = plain.parse(DOCUMENT, {});
      expect(tokens[0]).toBeInstanceOf(PlainToken);
      expect(tokens.find((token) => token.type === "inline")?.children?.[0]).toBeInstanceOf(PlainToken);
      expect(JSON.stringify(tokens)).toBe(JSON.stringify(stock.parse(DOCUMENT, {})));
      expect(plain.render(DOCUMENT)).toBe(stock.render(DOCUMENT));
    }
  });
});
