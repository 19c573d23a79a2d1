/**
 * Where a long document may be cut without changing what stays: at the start of a block (no inline
 * construct crosses from one block into the next), or between the lines of a code block (code is
 * shown as written, and a code block left open runs to the end). Finding the blocks takes
 * markdown-it's block parser alone, with no inline parse, which costs a fraction of a full parse
 * and nothing that grows faster than the text.
 */
import MarkdownIt, { type Token } from "markdown-it";

/**
 * A paragraph is where the parser's inline work happens, and parts of it grow faster than a
 * paragraph's length on hostile shapes. Real paragraphs are far shorter; logs that long are code
 * blocks, which are not parsed inline.
 */
export const MAX_PARAGRAPH_CHARS = 8_192;

/** Nesting is bounded before this runs (markdown-bounds.ts); markdown-it would stop at 100 levels without a word. */
const blocks = new MarkdownIt({ html: true, maxNesting: 1_000 });

/** Blocks that hold no other block; a table counts as one. */
const LEAVES = new Set([
  "paragraph_open",
  "heading_open",
  "table_open",
  "code_block",
  "fence",
  "html_block",
  "hr",
]);

export interface BlockCut {
  readonly cut: number;
  readonly reason: string;
}

/** A document too long: how long it may be, and where to cut it (a little before, to leave room for the note). */
export interface LengthLimit {
  readonly chars: number;
  readonly cutBefore: number;
}

/**
 * The first paragraph or heading longer than the limit is cut off at its line's start; a document
 * over its length limit is cut at the start of the block `cutBefore` falls in, or, in a code
 * block, at the start of that line.
 */
export function blockCut(text: string, limit: LengthLimit | undefined): BlockCut | undefined {
  const maxChars = limit?.cutBefore ?? text.length;
  const source = text.slice(0, maxChars);
  const leaves = blockLeaves(source);
  for (const [type, start, end] of leaves) {
    if ((type === "paragraph_open" || type === "heading_open") && end - start > MAX_PARAGRAPH_CHARS) {
      return {
        cut: lineStart(text, start),
        reason: `a paragraph longer than ${MAX_PARAGRAPH_CHARS.toLocaleString("en-US")} characters`,
      };
    }
  }
  if (!limit) return undefined;
  const reason = `longer than ${limit.chars.toLocaleString("en-US")} characters`;
  const last = leaves.at(-1);
  if (!last) return { cut: 0, reason };
  const [type, start] = last;
  const blockStart = lineStart(text, start);
  const limitLine = lineStart(text, maxChars);
  const firstLineEnd = text.indexOf("\n", start);
  if ((type === "fence" || type === "code_block") && firstLineEnd !== -1 && limitLine > firstLineEnd)
    return { cut: limitLine, reason };
  return { cut: blockStart, reason };
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Each leaf block's type and its source range, from the start of its first line to the end of its last. */
function blockLeaves(source: string): Array<readonly [string, number, number]> {
  const lineStarts = [0];
  for (let at = source.indexOf("\n"); at !== -1; at = source.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  const tokens: Token[] = [];
  blocks.block.parse(source, blocks, {}, tokens);
  const leaves: Array<readonly [string, number, number]> = [];
  for (const token of tokens) {
    if (!LEAVES.has(token.type) || !token.map) continue;
    const [first, next] = token.map;
    const end = next < lineStarts.length ? (lineStarts[next] ?? source.length) - 1 : source.length;
    leaves.push([token.type, lineStarts[first] ?? 0, end]);
  }
  return leaves;
}
