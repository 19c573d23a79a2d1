/**
 * Where a long document may be cut without changing what stays: at the start of a block (no inline
 * construct crosses from one block into the next), or between the lines of a code block (code is
 * shown as written, and a code block left open runs to the end). Finding the blocks takes a parse
 * of the document's block structure only, with every inline construct switched off, which costs
 * the parser a fraction of a full parse and nothing that grows faster than the text.
 */
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/**
 * A paragraph is where the parser's inline work happens, and parts of it (merging the text between
 * constructs) grow with the square of a paragraph's length. Real paragraphs are far shorter; logs
 * that long are code blocks, which are not parsed inline.
 */
export const MAX_PARAGRAPH_CHARS = 8_192;

const INLINE_CONSTRUCTS = [
  "attention",
  "autolink",
  "characterEscape",
  "characterReference",
  "codeText",
  "emailAutolink",
  "gfmFootnoteCall",
  "gfmPotentialFootnoteCall",
  "hardBreakEscape",
  "htmlText",
  "labelEnd",
  "labelStartImage",
  "labelStartLink",
  "protocolAutolink",
  "strikethrough",
  "tasklistCheck",
  "wwwAutolink",
];
const BLOCKS_ONLY = {
  extensions: [gfm(), { disable: { null: INLINE_CONSTRUCTS } }],
  mdastExtensions: [gfmFromMarkdown()],
};

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
  const leaves: Array<readonly [Nodes["type"], number, number]> = [];
  const visit = (node: Nodes): void => {
    if ("children" in node && node.type !== "paragraph" && node.type !== "heading" && node.type !== "table") {
      for (const child of node.children) visit(child);
    } else {
      leaves.push([node.type, node.position?.start.offset ?? 0, node.position?.end.offset ?? 0]);
    }
  };
  visit(fromMarkdown(source, BLOCKS_ONLY));
  for (const [type, start, end] of leaves) {
    if ((type === "paragraph" || type === "heading") && end - start > MAX_PARAGRAPH_CHARS) {
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
  if (type === "code" && firstLineEnd !== -1 && limitLine > firstLineEnd) return { cut: limitLine, reason };
  return { cut: blockStart, reason };
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}
