/**
 * Property: whatever hidden construct carries a payload, the sanitised text never holds the
 * payload, and every word a reader sees, in whatever visible construct, survives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeUntrusted } from "../../../lib/prompt/sanitize.ts";
import { outsideCode } from "./outside-code.ts";

const PAYLOAD = "zqxpayloadzqx";

/**
 * Ways GitHub renders a payload invisibly; each is complete (terminated), so what follows stays
 * visible. Block-level ones stand apart with blank lines: a definition that continues a
 * paragraph, or a reference on the line of an HTML block (which `<!--`, `<div` and others open
 * even mid-paragraph), is shown by GitHub as text.
 */
const hiding: ReadonlyArray<(payload: string) => string> = [
  (p) => `<!-- ${p} -->`,
  (p) => `<!--${p}-->`,
  (p) => `<!-- a -- ${p} -->`,
  (p) => `\n\n<!--\n${p}\n-->\n\n`,
  (p) => `<div hidden>${p}</div>`,
  (p) => `<details hidden><summary>${p}</summary>${p}</details>`,
  (p) => `\n\n<div hidden>\n\n**${p}** [${p}](https://x.test/${p})\n\n</div>\n\n`,
  (p) => `<div hidden><div hidden></div>${p}</div>`,
  (p) => `<span style="display:none">${p}</span>`,
  (p) => `<span style="visibility: hidden">${p}</span>`,
  (p) => `<span style='opacity:0'>${p}</span>`,
  (p) => `<p style="font-size:0">${p}</p>`,
  (p) => `<script>${p}</script>`,
  (p) => `<style>${p}</style>`,
  (p) => `<template>${p}</template>`,
  (p) => `<span data-note="${p}">x</span>`,
  (p) => `<a href="#" title="${p}" class="${p}">x</a>`,
  (p) => `<a href="javascript:${p}">x</a>`,
  (p) => `<img src="a.png" alt="${p}">`,
  (p) => `<img src=a.png alt=${p} />`,
  (p) => `<b aria-label="${p}" id="${p}">x</b>`,
  (p) => `<![CDATA[${p}]]>`,
  (p) => `<!DOCTYPE ${p}>`,
  (p) => `<!x ${p}>`,
  (p) => `<?xml ${p} ?>`,
  (p) => `\n\n<?php ${p} ?>\n\n`,
  (p) => `\n\n[//]: # (${p})\n\n`,
  (p) => `\n\n[//]: <> "${p}"\n\n`,
  (p) => `\n\n[${p}]: https://x.test\n\n`,
  (p) => `\n\n[x]: https://x.test\n  '${p}'\n\n`,
  (p) => `\n\n[x][${p}]\n\n[${p}]: https://x.test\n\n`,
  (p) => `\n\n![x][${p}]\n\n[${p}]: https://x.test\n\n`,
  (p) => `\n\n![${p}]\n\n[${p}]: https://x.test\n\n`,
  (p) => `\n\n[^${p}]: a note nothing refers to\n\n`,
  (p) => `x[^${p}]\n\n[^${p}]: note\n\n`,
  (p) => `![${p}](a.png)`,
  (p) => `[![${p}](a.png "${p}")](https://x.test "${p}")`,
  (p) => `[x](https://x.test "${p}")`,
  (p) => `[x](<https://x.test/a b> '${p}')`,
  (p) => `$\\phantom{${p}}$`,
  (p) => `$\\vphantom{${p}}$`,
  (p) => `$\`\\hphantom{${p}}\`$`,
  (p) => `$$\\color{transparent}{${p}}$$`,
  (p) => `$\\textcolor{white}{${p}}$`,
  (p) => `<!\u200B-- ${p} -->`,
  (p) => `<di\u200Bv hidden>${p}</div>`,
  (p) => `[x](https://x.test "\u202E${p}")`,
];

/** Ways a word is shown: every one must survive, code included. */
const showing: ReadonlyArray<(word: string) => string> = [
  (w) => w,
  (w) => `**${w}**`,
  (w) => `_${w}_`,
  (w) => `~~${w}~~`,
  (w) => `\`${w}\``,
  (w) => `[${w}](https://x.test/${w})`,
  (w) => `[${w}][ref]`,
  (w) => `<b title="${PAYLOAD}">${w}</b>`,
  (w) => `<a href="https://x.test" title="${PAYLOAD}">${w}</a>`,
  // `<details>` opens an HTML block whose lines GitHub shows raw, so the block stands apart.
  (w) => `\n\n<details><summary>${w}</summary>${w}</details>\n\n`,
  (w) => `\n\n<details open><summary>s</summary>\n\n${w}\n\n</details>\n\n`,
  (w) => `<sub>${w}</sub>`,
  (w) => `<kbd>${w}</kbd>`,
  (w) => `<unknown-tag>${w}</unknown-tag>`,
  (w) => `$${w}$`,
  (w) => `\n\n> ${w}\n\n`,
  (w) => `\n\n- [ ] ${w}\n\n`,
  (w) => `\n\n| head |\n| --- |\n| ${w} |\n\n`,
  (w) => `\n\n\`\`\`\n<!-- ${w} -->\n\`\`\`\n\n`,
  (w) => `\n\n~~~\n<div hidden>${w}</div>\n~~~\n\n`,
];

const word = fc.stringMatching(/^[a-z]{3,8}$/).map((w) => `w${w}`);
const before = fc.constantFrom(" ", "\n", "\n\n", " - ");
// Not a single newline after: a line holding only an HTML tag opens an HTML block, whose next line GitHub shows raw.
const after = fc.constantFrom(" ", "\n\n", " - ");
const hidden = fc.nat({ max: hiding.length - 1 }).map((index) => hiding[index]?.(PAYLOAD) ?? "");
const shown = fc.tuple(word, fc.nat({ max: showing.length - 1 })).map(([w, index]) => ({
  word: w,
  text: showing[index]?.(w) ?? w,
}));
const document = fc
  .array(fc.tuple(shown, before, fc.option(hidden, { nil: undefined }), after), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => ({
    words: parts.map(([s]) => s.word),
    // HTML at a line's start opens an HTML block, whose line GitHub shows raw (a link title
    // included), so a construct starting with `<` ends its line.
    text: parts.map(([s, a, h, b]) => `${s.text}${a}${h ?? ""}${h?.startsWith("<") ? "\n\n" : b}`).join(""),
  }));
/** Constructs that hide everything after them when left open. */
const unterminated = fc.constantFrom(
  `<!-- ${PAYLOAD}`,
  `\n\n<!--\n\n${PAYLOAD}`,
  `<div hidden>${PAYLOAD}`,
  `<span style="display:none">\n\n${PAYLOAD}`,
  `<script>${PAYLOAD}`,
);

/** The definition `[w][ref]` uses, so that form is a link and not text. */
const REFERENCE = "\n\n[ref]: https://x.test/ref\n";

describe("sanitizeUntrusted against hidden content", () => {
  it("never keeps a hidden payload and keeps every visible word", () => {
    fc.assert(
      fc.property(document, ({ words, text }) => {
        const result = sanitizeUntrusted(text + REFERENCE);
        expect(result).not.toContain(PAYLOAD);
        for (const w of words) expect(result).toContain(w);
      }),
      { numRuns: 500 },
    );
    // A hang guard, not a speed goal: 500 documents take seconds, several times that on a busy machine.
  }, 60_000);

  it("drops everything after an unterminated hiding construct, and nothing before it", () => {
    const later = word.map((w) => `later${w}`);
    fc.assert(
      fc.property(
        fc.array(shown, { minLength: 1, maxLength: 6 }),
        unterminated,
        later,
        (words, open, after) => {
          const text = `${words.map((s) => s.text).join(" ")}\n\n${open} ${after}`;
          const result = sanitizeUntrusted(text);
          expect(result).not.toContain(PAYLOAD);
          expect(result).not.toContain(after);
          for (const s of words) expect(result).toContain(s.word);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves nothing to hide: sanitising again changes nothing, and no comment opener is left outside code", () => {
    fc.assert(
      fc.property(document, ({ text }) => {
        const result = sanitizeUntrusted(text);
        expect(sanitizeUntrusted(result)).toBe(result);
        expect(outsideCode(result)).not.toContain("<!--");
      }),
      { numRuns: 300 },
    );
  });
});
