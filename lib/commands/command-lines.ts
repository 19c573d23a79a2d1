import { hiddenByInlineSpans } from "./inline-spans.ts";

/**
 * Finding `/locus` lines that a reader of the rendered comment sees as prose.
 *
 * A line-based approximation of CommonMark, linear in the body's length.
 * Hidden, and so never commands: fenced code (``` or ~~~, also opened after
 * a list marker; unclosed fences run to the end), indented code (4+ columns
 * after a blank line, the start, or any block other than a paragraph),
 * HTML comment blocks, quoted lines (`>`), and lines whose first character
 * sits inside a code span or an HTML comment that began on an earlier line
 * of the same paragraph. Quotes are judged line by line, without lazy
 * continuation: a `/locus` line typed right under a quote is a command,
 * because ignoring it silently would be worse than running it.
 */

/** Lines as Markdown sees them: CRLF, CR and LF all end one. */
export function splitLines(body: string): string[] {
  return body.split(/\r\n|\r|\n/);
}

/** Indexes of the lines that are `/locus` command lines, in order. */
export function findCommandLines(lines: readonly string[]): number[] {
  const blocks = classifyLines(lines);
  const found: number[] = [];
  let k = 0;
  while (k < lines.length) {
    if (blocks[k] === "other") {
      k += 1;
      continue;
    }
    let end = k + 1;
    while (end < lines.length && blocks[end] === "paragraph") end += 1;
    const paragraph = lines.slice(k, end);
    const offsets = paragraph.map(firstVisible);
    // Inline spans matter only to paragraphs with a `/locus` line, and most have none.
    const candidates = offsets.flatMap((offset, j) =>
      startsWithLocus(paragraph[j] ?? "", offset) ? [j] : [],
    );
    if (candidates.length > 0) {
      const hidden = hiddenByInlineSpans(paragraph, offsets);
      for (const j of candidates) if (hidden[j] !== true) found.push(k + j);
    }
    k = end;
  }
  return found;
}

/** Where the line's first non-whitespace character is (its length when there is none). */
function firstVisible(line: string): number {
  const offset = line.search(/\S/);
  return offset === -1 ? line.length : offset;
}

/** `/locus` as the line's first token (starting at `offset`), in any case, followed by whitespace or nothing. */
function startsWithLocus(line: string, offset: number): boolean {
  const after = line.charAt(offset + 6);
  return line.slice(offset, offset + 6).toLowerCase() === "/locus" && (after === "" || /\s/.test(after));
}

/**
 * "new-paragraph" starts a paragraph, "paragraph" continues the one above,
 * "other" is blank or hidden.
 */
type LineBlock = "new-paragraph" | "paragraph" | "other";

interface Fence {
  readonly char: string;
  readonly length: number;
  /** Column of the list item's content the fence was opened in; 0 at top level. */
  readonly container: number;
}

function classifyLines(lines: readonly string[]): LineBlock[] {
  const blocks: LineBlock[] = [];
  let fence: Fence | undefined;
  let inComment = false;
  let afterParagraph = false;
  for (const line of lines) {
    const { columns, offset } = indentation(line);
    const rest = line.slice(offset);
    const blank = rest.length === 0;
    // A list item's fence ends with the item: at a line indented less than its content.
    if (fence !== undefined && !blank && columns < fence.container) fence = undefined;
    if (fence !== undefined) {
      if (columns <= fence.container + 3 && closesFence(rest, fence)) fence = undefined;
      blocks.push("other");
      continue;
    }
    if (inComment) {
      inComment = !line.includes("-->");
      blocks.push("other");
      continue;
    }
    if (blank || (columns >= 4 && !afterParagraph)) {
      blocks.push("other");
      afterParagraph = false;
      continue;
    }
    if (columns < 4) {
      const opened = opensFence(rest, columns);
      if (rest.startsWith(">") || opened !== undefined || rest.startsWith("<!--")) {
        fence = opened;
        inComment = rest.startsWith("<!--") && rest.indexOf("-->", 2) === -1;
        blocks.push("other");
        afterParagraph = false;
        continue;
      }
    }
    const ownBlock = columns < 4 && (isListItem(rest) || isHeading(rest));
    blocks.push(!afterParagraph || ownBlock ? "new-paragraph" : "paragraph");
    afterParagraph = !(columns < 4 && isHeading(rest));
  }
  return blocks;
}

/** Leading spaces and tabs: the columns they span (tab stops of 4) and their length. */
function indentation(line: string): { columns: number; offset: number } {
  let columns = 0;
  let offset = 0;
  for (; offset < line.length; offset += 1) {
    const char = line[offset];
    if (char === " ") columns += 1;
    else if (char === "\t") columns += 4 - (columns % 4);
    else break;
  }
  return { columns, offset };
}

const listMarker = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$)/;

function isListItem(text: string): boolean {
  return listMarker.test(text);
}

function isHeading(text: string): boolean {
  return /^#{1,6}(?:[ \t]|$)/.test(text);
}

/** A fence opened by `text` (which starts at column `column`), directly or after one list marker. */
function opensFence(text: string, column: number): Fence | undefined {
  const marker = listMarker.exec(text)?.[0] ?? "";
  const content = text.slice(marker.length);
  const char = content.charAt(0);
  if (char !== "`" && char !== "~") return undefined;
  const length = runLength(content, char);
  // A backtick fence's info string cannot hold a backtick (it would be a code span).
  if (length < 3 || (char === "`" && content.includes("`", length))) return undefined;
  return { char, length, container: marker === "" ? 0 : advance(column, marker) };
}

/** The column reached by writing `text` from `column`, with tab stops of 4. */
function advance(column: number, text: string): number {
  let reached = column;
  for (const char of text) reached = char === "\t" ? reached + 4 - (reached % 4) : reached + 1;
  return reached;
}

function closesFence(text: string, fence: Fence): boolean {
  const length = runLength(text, fence.char);
  return length >= fence.length && /^[ \t]*$/.test(text.slice(length));
}

function runLength(text: string, char: string): number {
  let length = 0;
  while (text[length] === char) length += 1;
  return length;
}
