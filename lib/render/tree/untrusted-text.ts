/**
 * Text someone else wrote in Markdown (the agent's summary, a model's answer,
 * a review finding) turned into tree nodes Locus can publish. Only the
 * document's outline is kept: paragraphs, headings, list items, quotes, fenced
 * code, code spans, links to web addresses (whose text is text) and bare web addresses. Every
 * other character is text, shown as written: emphasis, images, HTML and
 * tables appear literally, so nothing in it
 * can load an image, hide text, or reach outside its text nodes. Character
 * references and backslash escapes are decoded first (`&#64;` is an `@`), so
 * what the defuser checks is what a reader sees.
 *
 * The reader is one pass over the lines with no backtracking, so hostile
 * input costs time in proportion to its length: size and quote nesting are
 * capped, and a cut says so.
 */
import type { BlockContent, PhrasingContent } from "mdast";
import { decodeString } from "micromark-util-decode-string";
import { code, codeBlock, text } from "./nodes.ts";

/** Longer than any comment GitHub accepts. */
const MAX_UNTRUSTED_CHARS = 65_536;
/** Quotes nested deeper than this are shown with their `>` as text. */
const MAX_QUOTE_DEPTH = 8;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*)$/;
const ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}> ?(.*)$/;

/**
 * `[text](https://…)`: a link whose text holds no brackets, to a web address; or a bare web
 * address, which GitHub would link and the serialiser's escaping would not, without the
 * punctuation that ends a sentence.
 */
const LINK =
  /\[([^[\]\n]{1,500})\]\((https?:\/\/[^\s()<>]{1,2000})\)|(?<![\w/`])(https?:\/\/[^\s()<>[\]`]{0,2000}[^\s()<>[\]`.,:;!?'"*_~])/g;

/** Inline content of a paragraph: links to web addresses as links, code spans as code, the rest as decoded text. */
export function untrustedInline(source: string): PhrasingContent[] {
  const nodes: PhrasingContent[] = [];
  let last = 0;
  for (const match of source.matchAll(LINK)) {
    if (match.index > last) nodes.push(...codeAndText(source.slice(last, match.index)));
    const bare = match[3];
    nodes.push(
      bare === undefined
        ? { type: "link", url: match[2] ?? "", children: codeAndText(match[1] ?? "") }
        : { type: "link", url: bare, children: [text(bare)] },
    );
    last = match.index + match[0].length;
  }
  if (last < source.length) nodes.push(...codeAndText(source.slice(last)));
  return nodes;
}

/** Code spans as code, the rest as decoded text. */
function codeAndText(source: string): PhrasingContent[] {
  const nodes: PhrasingContent[] = [];
  const runs = [...source.matchAll(/`+/g)];
  // Where each backtick run of a given length occurs, so a closing run is found without rescanning.
  const byLength = new Map<number, number[]>();
  runs.forEach((run, index) => {
    const list = byLength.get(run[0].length) ?? [];
    list.push(index);
    byLength.set(run[0].length, list);
  });
  const next = new Map<number, number>();
  let last = 0;
  let position = 0;
  for (let index = 0; index < runs.length; index += 1) {
    const run = runs[index];
    if (!run || run.index < position) continue;
    const same = byLength.get(run[0].length) ?? [];
    let cursor = next.get(run[0].length) ?? 0;
    while ((same[cursor] ?? Infinity) <= index) cursor += 1;
    next.set(run[0].length, cursor);
    const closing = same[cursor];
    const close = closing === undefined ? undefined : runs[closing];
    if (!close) continue;
    if (run.index > last) nodes.push(text(decodeString(source.slice(last, run.index))));
    nodes.push(code(source.slice(run.index + run[0].length, close.index).trim() || " "));
    last = close.index + close[0].length;
    position = last;
    next.set(run[0].length, cursor + 1);
  }
  if (last < source.length) nodes.push(text(decodeString(source.slice(last))));
  return nodes;
}

function paragraphOf(lines: readonly string[]): BlockContent {
  return { type: "paragraph", children: untrustedInline(lines.map((line) => line.trim()).join("\n")) };
}

function blocks(lines: readonly string[], depth: number): BlockContent[] {
  const out: BlockContent[] = [];
  let paragraph: string[] = [];
  let items: string[][] | undefined;
  const flush = (): void => {
    if (paragraph.length > 0) out.push(paragraphOf(paragraph));
    paragraph = [];
    if (items) {
      out.push({
        type: "list",
        ordered: false,
        spread: false,
        children: items.map((item) => ({ type: "listItem", spread: false, children: [paragraphOf(item)] })),
      });
    }
    items = undefined;
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const fence = FENCE.exec(line);
    if (fence?.[1]) {
      flush();
      const marker = fence[1];
      const body: string[] = [];
      index += 1;
      while (
        index < lines.length &&
        !new RegExp(`^ {0,3}${marker[0]}{${marker.length},}\\s*$`).test(lines[index] ?? "")
      ) {
        body.push(lines[index] ?? "");
        index += 1;
      }
      out.push(codeBlock(body.join("\n"), fence[2]));
      continue;
    }
    const quote = depth < MAX_QUOTE_DEPTH ? QUOTE.exec(line) : null;
    if (quote) {
      flush();
      const inner = [quote[1] ?? ""];
      while (index + 1 < lines.length && QUOTE.test(lines[index + 1] ?? "")) {
        index += 1;
        inner.push(QUOTE.exec(lines[index] ?? "")?.[1] ?? "");
      }
      out.push({ type: "blockquote", children: blocks(inner, depth + 1) });
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading?.[1]) {
      flush();
      const level = heading[1].length as 1 | 2 | 3 | 4 | 5 | 6;
      out.push({
        type: "heading",
        depth: level,
        children: untrustedInline((heading[2] ?? "").trimEnd().replace(/\s#+$/, "")),
      });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      if (paragraph.length > 0) flush();
      items ??= [];
      items.push([item[1] ?? ""]);
      continue;
    }
    if (items) items[items.length - 1]?.push(line);
    else paragraph.push(line);
  }
  flush();
  return out;
}

/** Someone else's Markdown as blocks Locus can publish: its outline kept, everything else text. */
export function untrustedMarkdown(source: string): BlockContent[] {
  const cut = source.length > MAX_UNTRUSTED_CHARS;
  const kept = cut ? source.slice(0, MAX_UNTRUSTED_CHARS) : source;
  const out = blocks(kept.replace(/\r\n?/g, "\n").split("\n"), 0);
  if (cut) {
    out.push({
      type: "paragraph",
      children: [
        {
          type: "emphasis",
          children: [text(`[… cut: ${source.length - kept.length} more characters not shown]`)],
        },
      ],
    });
  }
  return out;
}
