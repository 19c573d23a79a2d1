/**
 * One markdown-it parse of a document (CommonMark with raw HTML, GFM tables and footnotes), read
 * for the constructs that can hide text, each with its offsets in the source. markdown-it keeps no
 * inline offsets, so its block rules are wrapped to record where each block's inline content lies
 * (inline-offsets.ts) and its inline rules to record where each construct starts and ends. Emphasis
 * and strikethrough are switched off: they hide nothing and no other construct depends on them
 * (code, HTML and links bind first).
 */
import MarkdownIt, { type StateBlock, type StateCore, type StateInline, type Token } from "markdown-it";
import { footnoteCallRule, footnoteDefinitionRule, type FootnoteRecord } from "./footnote-rules.ts";
import { headingOffsets, linesOffsets, tableOffsets, type Offsets } from "./inline-offsets.ts";
import { usePlainTokens } from "./plain-tokens.ts";
import type { HtmlFragment } from "./visible-html.ts";

type Range = readonly [number, number];

export interface Link {
  /** Offset of the `]` that closes the link's text, and of the link's end. */
  readonly textEnd: number;
  readonly end: number;
  readonly url: string;
  readonly title: string;
  /** `[text][label]`, `[text][]` or `[text]`: the label is not shown. */
  readonly reference: boolean;
}

export interface Scan extends FootnoteRecord {
  /** Reference definitions (`[label]: url "title"`). */
  readonly definitions: Range[];
  readonly html: HtmlFragment[];
  readonly links: Link[];
  readonly images: Array<{ readonly start: number; readonly end: number; readonly url: string }>;
  readonly code: Range[];
  /** Paragraphs, headings and table cells: where math renders. */
  readonly phrasing: Range[];
  /** `<!--` read as text (no comment follows it). */
  readonly commentOpeners: number[];
  readonly footnoteCalls: Array<{ readonly start: number; readonly end: number; readonly label: string }>;
}

/** The inline content being read: its state, the source offsets of its characters, what is not text. */
interface Current {
  state: StateInline | undefined;
  readonly offsets: Offsets;
  readonly notText: Range[];
}

interface ScanEnv {
  readonly text: string;
  readonly scan: Scan;
  readonly offsets: Map<Token, Offsets>;
  current: Current | undefined;
}

/**
 * Nesting beyond markdown-it's default of 100 levels is not dropped silently (what is not parsed
 * could not be checked); markdown-bounds.ts has already cut anything nested deeper than any comment.
 */
const parser = new MarkdownIt({ html: true, linkify: false, maxNesting: 1_000 });
usePlainTokens(parser);
// Entities are decoded only where a destination needs them (markdown-it does that itself), and
// `&lt;` stays text either way.
parser.disable(["emphasis", "strikethrough", "balance_pairs", "entity", "text_join"]);
// Destinations as written (escapes decoded), not percent-encoded, and every scheme read as a link.
parser.normalizeLink = (url) => url;
parser.normalizeLinkText = (text) => text;
parser.validateLink = () => true;

const envOf = (state: StateBlock | StateInline | StateCore): ScanEnv => state.env as unknown as ScanEnv;

parser.block.ruler.before(
  "reference",
  "footnote_definition",
  footnoteDefinitionRule((state) => envOf(state).scan),
  {
    alt: ["paragraph", "reference"],
  },
);
parser.inline.ruler.after(
  "html_inline",
  "footnote_call",
  footnoteCallRule((state) => envOf(state).scan),
);

/** The rules whose findings the sanitiser needs; the rest run as they are. */
const RECORDED_BLOCKS = new Set(["reference", "html_block", "paragraph", "lheading", "heading", "table"]);
const RECORDED_INLINE = new Set(["backticks", "html_inline", "footnote_call", "image", "link"]);

wrapBlockRules();
wrapInlineRules();
parser.core.ruler.at("inline", readInline);

export function scanMarkdown(text: string): Scan {
  const scan: Scan = {
    definitions: [],
    html: [],
    links: [],
    images: [],
    code: [],
    phrasing: [],
    commentOpeners: [],
    footnoteCalls: [],
    footnoteDefinitions: [],
    footnotesDefined: new Set(),
  };
  const env: ScanEnv = { text, scan, offsets: new Map(), current: undefined };
  parser.parse(text, env as unknown as Record<string, unknown>);
  return scan;
}

/** Block rules whose position the sanitiser needs: each records it when it succeeds (not when only asked whether it could). */
function wrapBlockRules(): void {
  const ruler = parser.block.ruler;
  for (const { name, fn, alt } of [...ruler.__rules__]) {
    if (!RECORDED_BLOCKS.has(name)) continue;
    const wrapped = (state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean => {
      const before = state.tokens.length;
      if (!fn(state, startLine, endLine, silent)) return false;
      if (!silent) recordBlock(name, state, startLine, before);
      return true;
    };
    ruler.at(name, wrapped, { alt });
  }
}

/** Records what the block rule `name` read from `startLine`; its tokens are those from `first` on. */
function recordBlock(name: string, state: StateBlock, startLine: number, first: number): void {
  const { scan, offsets } = envOf(state);
  const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
  const end = state.eMarks[Math.max(startLine, state.line - 1)] ?? state.src.length;
  const inline = tokenOfType(state.tokens, first, "inline");
  switch (name) {
    case "reference":
      scan.definitions.push([start, end]);
      return;
    case "html_block":
      scan.html.push({ start, source: state.src.slice(start, end) });
      return;
    case "paragraph":
    case "lheading":
      if (inline) offsets.set(inline, linesOffsets(state, inline.content, startLine));
      return;
    case "heading":
      if (inline && inline.content !== "")
        offsets.set(inline, headingOffsets(state, inline.content, startLine));
      return;
    case "table":
      for (const [token, cell] of tableOffsets(state, first)) offsets.set(token, cell);
      return;
  }
}

/** Inline rules, each recording where what it read lies; only for the content being read, not an image's alt text read apart. */
function wrapInlineRules(): void {
  const ruler = parser.inline.ruler;
  for (const { name, fn, alt } of [...ruler.__rules__]) {
    if (!RECORDED_INLINE.has(name)) continue;
    const wrapped = (state: StateInline, silent: boolean): boolean => {
      const current = envOf(state).current;
      if (silent || !current) return fn(state, silent);
      if (current.state !== state) return fn(state, silent);
      const start = state.pos;
      const before = state.tokens.length;
      const textEnd = name === "link" || name === "image" ? labelEnd(state, name) : -1;
      if (!fn(state, silent)) return false;
      recordInline(name, current, start, state.pos, textEnd, before);
      return true;
    };
    ruler.at(name, wrapped, { alt });
  }
}

function labelEnd(state: StateInline, name: string): number {
  const open = state.pos + (name === "image" ? 1 : 0);
  if (state.src[open] !== "[") return -1;
  return state.md.helpers.parseLinkLabel(state, open, name === "link");
}

/** Records what the inline rule `name` read from `start` to `end`; its tokens are those from `first` on. */
function recordInline(
  name: string,
  current: Current,
  start: number,
  end: number,
  textEnd: number,
  first: number,
): void {
  const tokens = current.state?.tokens ?? [];
  const { scan, text } = envOf(current.state as StateInline);
  const at = (position: number): number => current.offsets[position] ?? 0;
  const source = current.state?.src ?? "";
  switch (name) {
    case "backticks":
      current.notText.push([start, end]);
      scan.code.push([at(start), at(end)]);
      return;
    case "html_inline":
      current.notText.push([start, end]);
      scan.html.push({ start: at(start), source: text.slice(at(start), at(end)) });
      return;
    case "footnote_call":
      current.notText.push([start, end]);
      scan.footnoteCalls.push({ start: at(start), end: at(end), label: source.slice(start + 2, end - 1) });
      return;
    case "image": {
      current.notText.push([start, end]);
      const token = tokenOfType(tokens, first, "image");
      scan.images.push({ start: at(start), end: at(end), url: String(token?.attrGet("src") ?? "") });
      return;
    }
    case "link": {
      current.notText.push([textEnd, end]);
      const token = tokenOfType(tokens, first, "link_open");
      if (!token || token.markup === "autolink") return;
      scan.links.push({
        textEnd: at(textEnd),
        end: at(end),
        url: String(token.attrGet("href") ?? ""),
        title: String(token.attrGet("title") ?? ""),
        reference: source[end - 1] === "]",
      });
      return;
    }
  }
}

/** The first token of `type` from index `first` on (a rule's own tokens, without copying them out). */
function tokenOfType(tokens: readonly Token[], first: number, type: string): Token | undefined {
  for (let index = first; index < tokens.length; index += 1)
    if (tokens[index]?.type === type) return tokens[index];
  return undefined;
}

/** The core rule that reads each block's inline content, with the offsets its block rule recorded. */
function readInline(state: StateCore): void {
  const env = envOf(state);
  for (const token of state.tokens) {
    if (token.type !== "inline") continue;
    const offsets = env.offsets.get(token);
    if (offsets === undefined) {
      if (token.content === "") continue;
      throw new Error(`no source offsets for inline content`);
    }
    const current: Current = { state: undefined, offsets, notText: [] };
    env.current = current;
    const inline = new parser.inline.State(token.content, parser, state.env, token.children ?? []);
    current.state = inline;
    parser.inline.tokenize(inline);
    for (const rule of parser.inline.ruler2.getRules("")) rule(inline);
    env.current = undefined;
    env.scan.phrasing.push([offsets[0] ?? 0, offsets.at(-1) ?? 0]);
    for (const opener of commentOpeners(token.content, current.notText))
      env.scan.commentOpeners.push(offsets[opener] ?? 0);
  }
}

/**
 * `<!--` in the text of inline content: not inside code, a tag or a link's destination. An autolink
 * can hold one (`<!--@x>` reads as an e-mail address), and so can an escape (`\<!--` shows `<!--`):
 * both count as text, since other readers see a comment opener there.
 */
function commentOpeners(content: string, notText: readonly Range[]): number[] {
  const found: number[] = [];
  for (let at = content.indexOf("<!--"); at !== -1; at = content.indexOf("<!--", at + 1)) {
    if (!notText.some(([start, end]) => start <= at && at < end)) found.push(at);
  }
  return found;
}
