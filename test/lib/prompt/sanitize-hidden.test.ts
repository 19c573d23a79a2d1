/**
 * Property: whatever hidden construct carries a payload, the sanitised text
 * never holds the payload, and every visible word around it survives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeUntrusted } from "../../../lib/prompt/sanitize.ts";

const PAYLOAD = "zqxpayloadzqx";

/** Ways GitHub renders a payload invisibly; each is complete (terminated), so what follows stays visible. */
const hiding: ReadonlyArray<(payload: string) => string> = [
  (p) => `<!-- ${p} -->`,
  (p) => `<div hidden>${p}</div>`,
  (p) => `<span style="display:none">${p}</span>`,
  (p) => `<p style="font-size:0">${p}</p>`,
  (p) => `<script>${p}</script>`,
  (p) => `<span data-note="${p}">x</span>`,
  (p) => `<a href="#" title="${p}" class="${p}">x</a>`,
  (p) => `<img src="a.png" alt="${p}">`,
  (p) => `<![CDATA[${p}]]>`,
  (p) => `<!DOCTYPE ${p}>`,
  (p) => `<?xml ${p} ?>`,
  (p) => `\n[//]: # (${p})\n`,
  (p) => `\n[${p}]: https://x.test\n`,
  (p) => `![${p}](a.png)`,
  (p) => `[x](https://x.test "${p}")`,
  (p) => `$\\phantom{${p}}$`,
  (p) => `$$\\color{transparent}{${p}}$$`,
  (p) => `<!\u200B-- ${p} -->`,
];

const word = fc.stringMatching(/^[a-z]{3,8}$/).map((w) => `w${w}`);
const separator = fc.constantFrom(" ", "\n", "\n\n", " - ");
const hidden = fc.nat({ max: hiding.length - 1 }).map((index) => hiding[index]?.(PAYLOAD) ?? "");
const document = fc.array(fc.tuple(word, separator, fc.option(hidden, { nil: undefined }), separator), {
  minLength: 1,
  maxLength: 12,
});

describe("sanitizeUntrusted against hidden content", () => {
  it("never keeps a hidden payload and keeps every visible word", () => {
    fc.assert(
      fc.property(document, (parts) => {
        const text = parts.map(([w, a, h, b]) => `${w}${a}${h ?? ""}${b}`).join("");
        const result = sanitizeUntrusted(text);
        expect(result).not.toContain(PAYLOAD);
        for (const [w] of parts) expect(result).toContain(w);
      }),
      { numRuns: 1000 },
    );
  });
});
