/**
 * Markdown reduced to what a reader of the rendered page sees, still as Markdown: the model reads
 * the text a person reviewed, not HTML. The document is parsed with markdown-it, read for the
 * source offsets of every construct that can hide text (markdown-scan.ts), and only the constructs
 * GitHub hides are cut out of the source or rewritten in place; everything else, code above all, is kept byte
 * for byte. Cutting one construct can join the pieces of another (`<!<!-- x -->-- y -->`), so the
 * passes repeat until nothing changes. The parser is given at most what it reads in time
 * (markdown-bounds.ts); what is left out is named in a note after the text.
 */
import { boundMarkdown } from "./markdown-bounds.ts";
import { footnoteKey } from "./footnote-rules.ts";
import { scanMarkdown, type Scan } from "./markdown-scan.ts";
import { visibleHtml, type Edit } from "./visible-html.ts";

/**
 * Each pass only removes; a construct rebuilt from pieces more than this many times over is an
 * attack, and its markup is neutralised. Each pass is a parse, so this also bounds the time.
 */
const MAX_PASSES = 3;

/** Math GitHub renders as blank space: `\phantom` (and `\vphantom`, `\hphantom`), or a transparent or white colour. */
const HIDDEN_MATH = /\\(?:[vh]?phantom|(?:text)?color\s*\{\s*(?:transparent|white|#fff(?:fff)?)\s*\})/i;
/** GitHub's math spans: `$$…$$`, `` $`…`$ `` and `$…$`. */
const MATH_SPAN = /\$\$[\s\S]*?\$\$|\$`[^`\n]*`\$|\$[^$\n]+\$/g;

/** Characters every hiding construct starts with; text without them is returned without parsing. */
const MAY_HIDE = /[<[$]/;

/** What stands for text the parser cannot take (nesting thousands deep exhausts its stack). */
const UNPARSABLE = "(text left out: it is nested too deeply to be read safely)";

export function visibleMarkdown(text: string): string {
  if (!MAY_HIDE.test(text)) return text;
  const bounded = boundMarkdown(text);
  if (bounded.note === undefined) return visibleWithin(text);
  // The stand-in definitions come first; what is left of them is blank lines.
  const visible = visibleWithin(bounded.text).replace(/^\n+/, "");
  return visible === "" ? bounded.note : `${visible}\n\n${bounded.note}`;
}

/** The visible part of a document the parser can take in time. */
function visibleWithin(text: string): string {
  try {
    let current = text;
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const next = onePass(current);
      if (next === current) return current;
      current = next;
    }
    // Still changing: with every `<` made literal no HTML is left to hide anything.
    return onePass(current.replaceAll("<", "&lt;"));
  } catch {
    // Text that cannot be read cannot be shown to be harmless, and a prompt must still be built.
    return UNPARSABLE;
  }
}

function onePass(text: string): string {
  const found = scanMarkdown(text);
  // Block HTML is found before the inline HTML of the blocks around it; the HTML reader takes it in document order.
  const html = found.html.sort((a, b) => a.start - b.start);
  const edits: Edit[] = visibleHtml(html, text.length);
  // Never shown; references to them are rewritten with their URL, so none of them is needed.
  for (const [start, end] of found.definitions) edits.push({ start, end, text: "" });
  // Alt text and title are not on the page; the image is.
  for (const image of found.images) edits.push({ ...image, text: `![](${destination(image.url)})` });
  for (const link of found.links) {
    // A reference's label is never shown (`[text][label]`), nor is a title.
    if (link.reference || link.title !== "" || link.url.includes("<")) {
      edits.push({ start: link.textEnd, end: link.end, text: `](${destination(link.url)})` });
    }
  }
  // GitHub shows an unterminated `<!--` inside a paragraph as text, but elsewhere one hides the
  // rest of the document; the rest goes either way, so no comment opener ever survives.
  for (const opener of found.commentOpeners) edits.push({ start: opener, end: text.length, text: "" });
  for (const [start, end] of found.phrasing) hiddenMath(text, start, end, found.code, edits);
  edits.push(...footnotes(found));
  return applyEdits(text, edits);
}

/**
 * GitHub shows a footnote as its number, in order of first call, and never shows a footnote
 * nothing calls; labels become those numbers and notes nothing calls go.
 */
function footnotes(found: Scan): Edit[] {
  const numbers = new Map<string, number>();
  const edits: Edit[] = [];
  for (const call of found.footnoteCalls) {
    const key = footnoteKey(call.label);
    if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
    edits.push({ start: call.start, end: call.end, text: `[^${numbers.get(key)}]` });
  }
  for (const definition of found.footnoteDefinitions) {
    const { start, end } = definition;
    const number = numbers.get(footnoteKey(definition.label));
    if (number === undefined) edits.push({ start, end, text: "" });
    else edits.push({ start, end: start + definition.labelLength, text: `[^${number}]:` });
  }
  return edits;
}

/** A link destination written back: bare when it is plain, else in `<…>`. */
function destination(url: string): string {
  // `<` and `>` percent-encoded, as the page's href carries them: no tag or comment starts in a destination.
  const encoded = url.replace(/</g, "%3C").replace(/>/g, "%3E");
  if (/^[^\s<>()\\]*(?:\([^\s<>()\\]*\)[^\s<>()\\]*)*$/.test(encoded)) return encoded;
  return `<${encoded.replace(/\\/g, "\\\\").replace(/\n/g, " ")}>`;
}

/** Adds to `edits` the math spans in a paragraph, heading or table cell that render as nothing; code spans are left alone. */
function hiddenMath(
  text: string,
  start: number,
  end: number,
  code: ReadonlyArray<readonly [number, number]>,
  edits: Edit[],
): void {
  const phrasing = text.slice(start, end);
  // Most paragraphs hold no math at all.
  if (!phrasing.includes("$")) return;
  for (const match of phrasing.matchAll(MATH_SPAN)) {
    const from = start + match.index;
    const to = from + match[0].length;
    const inCode = code.some(([codeStart, codeEnd]) => codeStart <= from && to <= codeEnd);
    if (!inCode && HIDDEN_MATH.test(match[0])) edits.push({ start: from, end: to, text: "" });
  }
}

/**
 * Applies edits in order; one inside another is dropped (the outer one decides), and two that
 * overlap only in part remove both ranges, since either one alone says the text is hidden.
 */
function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  let result = "";
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.start < cursor) {
      cursor = Math.max(cursor, edit.end);
      continue;
    }
    result += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return result + text.slice(cursor);
}
