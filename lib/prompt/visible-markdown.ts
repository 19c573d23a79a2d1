/**
 * Markdown reduced to what a reader of the rendered page sees, still as Markdown: the model reads
 * the text a person reviewed, not HTML. The document is parsed with micromark (the CommonMark and
 * GFM parser of the unified family, with exact source offsets), and only the constructs GitHub hides
 * are cut out of the source or rewritten in place; everything else, code above all, is kept byte
 * for byte. Cutting one construct can join the pieces of another (`<!<!-- x -->-- y -->`), so the
 * passes repeat until nothing changes. The parser is given at most what it reads in time
 * (markdown-bounds.ts); what is left out is named in a note after the text.
 */
import type { Definition, Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { boundMarkdown } from "./markdown-bounds.ts";
import { visibleHtml, type Edit, type HtmlFragment } from "./visible-html.ts";

/**
 * Each pass only removes; a construct rebuilt from pieces more than this many times over is an
 * attack, and its markup is neutralised. Each pass is a parse, so this also bounds the time.
 */
const MAX_PASSES = 3;

/** Math GitHub renders as blank space: `\phantom` (and `\vphantom`, `\hphantom`), or a transparent or white colour. */
const HIDDEN_MATH = /\\(?:[vh]?phantom|(?:text)?color\s*\{\s*(?:transparent|white|#fff(?:fff)?)\s*\})/i;
/** GitHub's math spans: `$$…$$`, `` $`…`$ `` and `$…$`. */
const MATH_SPAN = /\$\$[\s\S]*?\$\$|\$`[^`\n]*`\$|\$[^$\n]+\$/g;

/**
 * GitHub-flavoured Markdown as github.com parses it (tables, task lists, footnotes, autolinks),
 * without emphasis and strikethrough: they never hide anything, no other construct depends on
 * them (code, HTML, links and references bind first), and matching their delimiters is the one
 * part of micromark whose time grows with the square of a paragraph (`*_*_*_…`).
 */
const PARSE_OPTIONS = {
  extensions: [gfm(), { disable: { null: ["attention", "strikethrough"] } }],
  mdastExtensions: [gfmFromMarkdown()],
};

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

interface Collected {
  readonly edits: Edit[];
  readonly html: HtmlFragment[];
  readonly definitions: Map<string, Definition>;
  readonly references: Extract<Nodes, { type: "linkReference" | "imageReference" }>[];
  readonly code: Array<readonly [number, number]>;
  readonly phrasing: Array<readonly [number, number]>;
  readonly footnoteReferences: Extract<Nodes, { type: "footnoteReference" }>[];
  readonly footnoteDefinitions: Extract<Nodes, { type: "footnoteDefinition" }>[];
}

function onePass(text: string): string {
  const tree = fromMarkdown(text, PARSE_OPTIONS);
  const found: Collected = {
    edits: [],
    html: [],
    definitions: new Map(),
    references: [],
    code: [],
    phrasing: [],
    footnoteReferences: [],
    footnoteDefinitions: [],
  };
  collect(tree, text, found);
  const edits = [...found.edits, ...visibleHtml(found.html, text.length)];
  for (const reference of found.references) {
    const definition = found.definitions.get(reference.identifier);
    if (definition) edits.push(resolveReference(reference, definition.url));
  }
  for (const [start, end] of found.phrasing) edits.push(...hiddenMath(text, start, end, found.code));
  edits.push(...footnotes(text, found));
  return applyEdits(text, edits);
}

function collect(node: Nodes, text: string, found: Collected): void {
  const [start, end] = span(node);
  switch (node.type) {
    case "definition":
      // Never shown; references to it are rewritten with its URL, so none of it is needed.
      found.edits.push({ start, end, text: "" });
      if (!found.definitions.has(node.identifier)) found.definitions.set(node.identifier, node);
      return;
    case "html":
      found.html.push({ start, source: text.slice(start, end) });
      return;
    case "image":
      // Alt text and title are not on the page; the image is.
      found.edits.push({ start, end, text: `![](${destination(node.url)})` });
      return;
    case "imageReference":
      found.references.push(node);
      return;
    case "link":
      if ((node.title !== null && node.title !== undefined) || node.url.includes("<")) {
        found.edits.push({ start: textEnd(node, start), end, text: `](${destination(node.url)})` });
      }
      break;
    case "linkReference":
      found.references.push(node);
      break;
    case "code":
    case "inlineCode":
      found.code.push([start, end]);
      return;
    case "text": {
      // GitHub shows an unterminated `<!--` inside a paragraph as text, but elsewhere one hides
      // the rest of the document; the rest goes either way, so no comment opener ever survives.
      const opener = text.slice(start, end).indexOf("<!--");
      if (opener !== -1) found.edits.push({ start: start + opener, end: text.length, text: "" });
      return;
    }
    case "footnoteReference":
      found.footnoteReferences.push(node);
      return;
    case "footnoteDefinition":
      found.footnoteDefinitions.push(node);
      break;
    case "paragraph":
    case "heading":
    case "tableCell":
      found.phrasing.push([start, end]);
      break;
    case "root":
    case "blockquote":
    case "list":
    case "listItem":
    case "table":
    case "tableRow":
    case "emphasis":
    case "strong":
    case "delete":
    case "break":
    case "thematicBreak":
    case "yaml":
      break;
  }
  if ("children" in node) for (const child of node.children) collect(child, text, found);
}

function span(node: Nodes): readonly [number, number] {
  return [node.position?.start.offset ?? 0, node.position?.end.offset ?? 0];
}

/** Offset of the `]` closing a link's text. */
function textEnd(node: Extract<Nodes, { children: unknown }>, start: number): number {
  const last = node.children.at(-1);
  return last ? span(last)[1] : start + 1;
}

/**
 * A reference's label is never shown (`[text][label]`), and for an image neither is its text, so
 * references become inline links to their definition's URL and definitions can all go.
 */
function resolveReference(
  node: Extract<Nodes, { type: "linkReference" | "imageReference" }>,
  url: string,
): Edit {
  const [start, end] = span(node);
  if (node.type === "imageReference") return { start, end, text: `![](${destination(url)})` };
  return { start: textEnd(node, start), end, text: `](${destination(url)})` };
}

/**
 * GitHub shows a footnote as its number, in order of first reference, and never shows a footnote
 * nothing refers to; labels become those numbers and unreferenced notes go.
 */
function footnotes(text: string, found: Collected): Edit[] {
  const numbers = new Map<string, number>();
  const edits: Edit[] = [];
  for (const reference of found.footnoteReferences) {
    if (!numbers.has(reference.identifier)) numbers.set(reference.identifier, numbers.size + 1);
    const [start, end] = span(reference);
    edits.push({ start, end, text: `[^${numbers.get(reference.identifier)}]` });
  }
  for (const definition of found.footnoteDefinitions) {
    const [start, end] = span(definition);
    const number = numbers.get(definition.identifier);
    const label = /^\[\^(?:[^\]\\]|\\.)*\]:/.exec(text.slice(start, end))?.[0];
    if (number === undefined || label === undefined) edits.push({ start, end, text: "" });
    else edits.push({ start, end: start + label.length, text: `[^${number}]:` });
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

/** Math spans in a paragraph, heading or table cell that render as nothing; code spans are left alone. */
function hiddenMath(
  text: string,
  start: number,
  end: number,
  code: ReadonlyArray<readonly [number, number]>,
): Edit[] {
  const edits: Edit[] = [];
  for (const match of text.slice(start, end).matchAll(MATH_SPAN)) {
    const from = start + match.index;
    const to = from + match[0].length;
    const inCode = code.some(([codeStart, codeEnd]) => codeStart <= from && to <= codeEnd);
    if (!inCode && HIDDEN_MATH.test(match[0])) edits.push({ start: from, end: to, text: "" });
  }
  return edits;
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
