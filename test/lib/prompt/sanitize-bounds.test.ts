/**
 * Hostile shapes finish, are cut with a note saying so, and keep the sanitiser's guarantees: no
 * hidden payload survives and what a reader sees before the cut stays. Time is the benchmark's
 * business (`npm run bench -- sanitize`); these assert only on the output.
 */
import { describe, expect, it } from "vitest";
import { MAX_MARKDOWN_CHARS } from "../../../lib/prompt/markdown-bounds.ts";
import { sanitizeUntrusted } from "../../../lib/prompt/sanitize.ts";
import { outsideCode } from "./outside-code.ts";

const PAYLOAD = "zqxpayloadzqx";
const HIDDEN = `<!-- ${PAYLOAD} --> <span hidden>${PAYLOAD}</span> ![${PAYLOAD}](a.png)`;

/** The guarantees of every output: no payload, no comment opener outside code, stable when sanitised again. */
function expectSafe(result: string): void {
  expect(result).not.toContain(PAYLOAD);
  expect(outsideCode(result)).not.toContain("<!--");
  expect(sanitizeUntrusted(result)).toBe(result);
}

describe("sanitizeUntrusted on hostile shapes", () => {
  it("cuts 20,000 nested quotes with a note, keeping what comes before", () => {
    const text = `shown words\n\n${">".repeat(20_000)} ${HIDDEN} [x`;
    const result = sanitizeUntrusted(text);
    expect(result).toContain("shown words");
    expect(result).toMatch(/truncated: [\d,]+ characters left out, nesting deeper than 100 levels/);
    expectSafe(result);
  });

  it("cuts 20,000 nested list items, on one line or indented line by line", () => {
    const inline = `shown words\n\n${"- ".repeat(20_000)}${HIDDEN}`;
    const indented = Array.from({ length: 250 }, (_, level) => `${"  ".repeat(level)}- ${HIDDEN}`).join("\n");
    for (const text of [inline, `shown words\n\n${indented}`]) {
      const result = sanitizeUntrusted(text);
      expect(result).toContain("shown words");
      expect(result).toContain("truncated");
      expectSafe(result);
    }
  });

  it("reads 60 KB of emphasis delimiters without matching them", () => {
    const delimiters = `${"*_".repeat(30_000)}`;
    const result = sanitizeUntrusted(`shown words ${HIDDEN}\n\n${delimiters}\n\n${HIDDEN} later`);
    expect(result).toContain("shown words");
    expect(result).toContain("truncated");
    expectSafe(result);
    // Short runs are kept as written: emphasis hides nothing.
    expect(sanitizeUntrusted(`${"*_".repeat(500)} ${HIDDEN} end`)).toBe(
      `${"*_".repeat(500)}   ![](a.png) end`,
    );
  });

  it("cuts brackets nested deeper than anyone writes, and a paragraph full of unclosed `<!`", () => {
    for (const shape of ["![".repeat(20_000), "[".repeat(60_000), "<!<!--".repeat(10_000)]) {
      const result = sanitizeUntrusted(`shown words\n\n${shape}${HIDDEN}`);
      expect(result).toContain("shown words");
      expect(result).toContain("truncated");
      expectSafe(result);
    }
  });

  it("keeps the start of a 1 MB document and says how much was left out", () => {
    const section = `A paragraph with a [link](https://x.test) and \`code\`. ${HIDDEN}\n\n`;
    const text = `first words\n\n${section.repeat(Math.ceil(1_048_576 / section.length))}`;
    const result = sanitizeUntrusted(text);
    expect(result.startsWith("first words")).toBe(true);
    expect(result).toMatch(/truncated: [\d,]+ characters left out, longer than 32,768 characters\)$/);
    expect(result.length).toBeLessThan(MAX_MARKDOWN_CHARS);
    expectSafe(result);
  });

  it("cuts a long code block between its lines, not before it", () => {
    const log = Array.from({ length: 2_000 }, (_, line) => `line ${line} of the log <!-- kept -->`).join(
      "\n",
    );
    const result = sanitizeUntrusted(`Here is the log:\n\n\`\`\`\n${log}\n\`\`\`\n\nthe end`);
    expect(result).toContain("line 500 of the log <!-- kept -->");
    expect(result).not.toContain("the end");
    expect(result).toContain("longer than 32,768 characters");
  });

  it("cuts a paragraph longer than any real one, and only that much", () => {
    const result = sanitizeUntrusted(`shown words\n\n${"[a](".repeat(5_000)}\n\n${HIDDEN} later`);
    expect(result).toContain("shown words");
    expect(result).toContain("a paragraph longer than 8,192 characters");
    expect(result).not.toContain("later");
    expectSafe(result);
  });

  it("still hides a reference's label and an image's alt text when their definitions were cut off", () => {
    const filler = "Filler paragraph with [a link](https://x.test).\n\n".repeat(1_000);
    const text = [
      `[shown][${PAYLOAD}] and ![${PAYLOAD}] and a note[^${PAYLOAD}]`,
      filler,
      `[${PAYLOAD}]: https://x.test/${PAYLOAD}`,
      `[^${PAYLOAD}]: the note`,
    ].join("\n\n");
    const result = sanitizeUntrusted(text);
    expect(result).toContain("[shown](#text-left-out)");
    expect(result).toContain("longer than 32,768 characters");
    expectSafe(result);
  });

  it("hides what an attribute left open before the cut swallows", () => {
    const filler = "Filler paragraph.\n\n".repeat(3_000);
    const text = `<div\ntitle="abc\n\n${PAYLOAD}\n\n${filler}<span a="1">ok</span>`;
    expectSafe(sanitizeUntrusted(text));
  });
});
