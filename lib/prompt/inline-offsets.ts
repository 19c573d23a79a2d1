/**
 * Where each character of a block's inline content lies in the source. markdown-it hands its inline
 * parser the content of a paragraph, heading or table cell with the container prefixes (`> `, list
 * indentation), the heading's `#`s and a cell's pipes taken away, and keeps only line numbers. The
 * sanitiser cuts the source, so these tables take each content position back to its offset; they
 * are computed inside the block rule, while the rule's view of the lines (prefixes stripped) holds.
 * A table that does not line up with the source throws: offsets that are off would cut the wrong text.
 */
import type { StateBlock, Token } from "markdown-it";

/** Offsets of content positions `0…content.length` (the last is where the content ends). */
export type Offsets = number[];

/** What markdown-it trims from a paragraph's ends (ASCII white space only). */
function trimmable(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A paragraph or setext heading: content line `i` is the rest of source line `first + i`, trimmed. */
export function linesOffsets(state: StateBlock, content: string, first: number): Offsets {
  const offsets: Offsets = [];
  const { src } = state;
  let line = first;
  let at = 0;
  while (at <= content.length) {
    const newline = content.indexOf("\n", at);
    const end = newline === -1 ? content.length : newline;
    let lead = at;
    while (lead < end && trimmable(content.charCodeAt(lead))) lead += 1;
    // The line's text runs to the line's end (the last line less the white space trimmed off), so
    // it starts where that end says: a list marker or quote prefix before it is never counted.
    let lineEnd = state.eMarks[line] ?? src.length;
    if (newline === -1) while (lineEnd > 0 && trimmable(src.charCodeAt(lineEnd - 1))) lineEnd -= 1;
    const source = lineEnd - (end - lead);
    if (!src.startsWith(content.slice(lead, end), source))
      throw new Error("content does not match its source");
    for (let k = at; k < lead; k += 1) offsets.push(source);
    for (let k = lead; k < end; k += 1) offsets.push(source + k - lead);
    // The newline (or the content's end) stands where the line's text ends.
    offsets.push(source + end - lead);
    if (newline === -1) break;
    at = newline + 1;
    line += 1;
  }
  return offsets;
}

/** An ATX heading: its content is one piece of its line, starting after the `#`s. */
export function headingOffsets(state: StateBlock, content: string, line: number): Offsets {
  const from = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
  const start = state.src.indexOf(content, from);
  if (start === -1 || start > (state.eMarks[line] ?? 0)) throw new Error("heading does not match its source");
  const offsets: Offsets = [];
  for (let at = start; at <= start + content.length; at += 1) offsets.push(at);
  return offsets;
}

/** A table's cells (its tokens are those from `first` on) in the order markdown-it makes their inline tokens, each with its offsets. */
export function tableOffsets(state: StateBlock, first: number): Map<Token, Offsets> {
  const found = new Map<Token, Offsets>();
  let cells: Array<{ content: string; offsets: Offsets }> = [];
  let cell = 0;
  for (let index = first; index < state.tokens.length; index += 1) {
    const token = state.tokens[index];
    if (token === undefined) continue;
    if (token.type === "tr_open" && token.map) {
      cells = rowCells(state, token.map[0]);
      cell = 0;
    } else if (token.type === "inline") {
      const expected = cells[cell];
      cell += 1;
      if (token.content === "") continue;
      if (expected?.content !== token.content) throw new Error("table cell does not match its source");
      found.set(token, expected.offsets);
    }
  }
  return found;
}

/**
 * A row split as markdown-it splits it: the line trimmed, cut at each pipe not escaped, `\|` read
 * as `|`, an empty first and last cell dropped, each cell trimmed.
 */
function rowCells(state: StateBlock, line: number): Array<{ content: string; offsets: Offsets }> {
  const { src } = state;
  const rowStart = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
  const raw = src.slice(rowStart, state.eMarks[line]);
  const trimmed = raw.trim();
  const base = rowStart + raw.indexOf(trimmed);
  const columns: Array<{ content: string; offsets: Offsets }> = [];
  let content = "";
  let offsets: Offsets = [];
  let escaped = false;
  for (let at = 0; at < trimmed.length; at += 1) {
    const char = trimmed[at] ?? "";
    if (char === "|" && !escaped) {
      columns.push({ content, offsets: [...offsets, base + at] });
      content = "";
      offsets = [];
    } else if (char === "|") {
      content = content.slice(0, -1);
      offsets.pop();
      content += char;
      offsets.push(base + at);
    } else {
      content += char;
      offsets.push(base + at);
    }
    escaped = char === "\\";
  }
  columns.push({ content, offsets: [...offsets, base + trimmed.length] });
  if (columns[0]?.content === "") columns.shift();
  if (columns.at(-1)?.content === "") columns.pop();
  return columns.map(trimCell);
}

function trimCell(cell: { content: string; offsets: Offsets }): { content: string; offsets: Offsets } {
  const content = cell.content.trim();
  if (content === "") return { content, offsets: [] };
  const start = cell.content.indexOf(content);
  return { content, offsets: cell.offsets.slice(start, start + content.length + 1) };
}
