/**
 * GitHub's footnotes on markdown-it, which has none of its own: a definition (`[^label]: text`,
 * its later lines indented) is a block holding blocks, and a call (`[^label]`) is one only when its
 * label is defined, as GitHub reads them. The rules record where each lies for the sanitiser, which
 * rewrites labels as the numbers GitHub shows and drops notes nothing calls.
 */
import type { StateBlock, StateInline } from "markdown-it";

export interface FootnoteDefinition {
  readonly label: string;
  readonly start: number;
  readonly end: number;
  /** Length of `[^label]:`. */
  readonly labelLength: number;
}

/** Footnotes found in one parse: definitions in document order, and the labels defined. */
export interface FootnoteRecord {
  readonly footnoteDefinitions: FootnoteDefinition[];
  readonly footnotesDefined: Set<string>;
}

const MAX_LABEL = 999;

/** Labels compare case-folded, as reference labels do. */
export function footnoteKey(label: string): string {
  return label.toLowerCase().toUpperCase();
}

/** End of `[^label]` starting at `start` (the `[`), or -1: no white space, brackets only escaped. */
function footnoteLabelEnd(src: string, start: number, max: number): number {
  if (src[start] !== "[" || src[start + 1] !== "^") return -1;
  for (let at = start + 2; at < max && at - start <= MAX_LABEL + 2; at += 1) {
    const char = src[at] ?? "";
    if (char === "]") return at === start + 2 ? -1 : at;
    if (char === "[" || /\s/.test(char)) return -1;
    if (char === "\\") at += 1;
  }
  return -1;
}

/** The block rule, given where to record what it finds. */
export function footnoteDefinitionRule(record: (state: StateBlock) => FootnoteRecord) {
  return (state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean => {
    const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
    const max = state.eMarks[startLine] ?? 0;
    if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
    const labelEnd = footnoteLabelEnd(state.src, start, max);
    if (labelEnd === -1 || state.src[labelEnd + 1] !== ":") return false;
    if (silent) return true;
    const afterColon = labelEnd + 2;
    let pos = afterColon;
    const initial = (state.sCount[startLine] ?? 0) + afterColon - start;
    let offset = initial;
    for (; pos < max; pos += 1) {
      const char = state.src[pos];
      if (char === "\t") offset += 4 - (offset % 4);
      else if (char === " ") offset += 1;
      else break;
    }
    // The note's text is a block of its own, indented by four columns from the label, as in a list item.
    const saved = [state.bMarks[startLine], state.tShift[startLine], state.sCount[startLine]] as const;
    const parentType = state.parentType;
    state.bMarks[startLine] = afterColon;
    state.tShift[startLine] = pos - afterColon;
    state.sCount[startLine] = offset - initial;
    state.blkIndent += 4;
    state.parentType = "footnote";
    if ((state.sCount[startLine] ?? 0) < state.blkIndent)
      state.sCount[startLine] = (state.sCount[startLine] ?? 0) + state.blkIndent;
    state.md.block.tokenize(state, startLine, endLine);
    state.parentType = parentType;
    state.blkIndent -= 4;
    state.bMarks[startLine] = saved[0] ?? 0;
    state.tShift[startLine] = saved[1] ?? 0;
    state.sCount[startLine] = saved[2] ?? 0;
    let last = Math.max(startLine, state.line - 1);
    while (last > startLine && state.isEmpty(last)) last -= 1;
    const label = state.src.slice(start + 2, labelEnd);
    const found = record(state);
    found.footnotesDefined.add(footnoteKey(label));
    found.footnoteDefinitions.push({
      label,
      start,
      end: state.eMarks[last] ?? max,
      labelLength: labelEnd + 2 - start,
    });
    return true;
  };
}

/** The inline rule: a call to a defined footnote becomes one token; anything else is left to the link rule. */
export function footnoteCallRule(record: (state: StateInline) => FootnoteRecord) {
  return (state: StateInline, silent: boolean): boolean => {
    const labelEnd = footnoteLabelEnd(state.src, state.pos, state.posMax);
    if (labelEnd === -1) return false;
    const label = state.src.slice(state.pos + 2, labelEnd);
    if (!record(state).footnotesDefined.has(footnoteKey(label))) return false;
    if (!silent) state.push("footnote_ref", "", 0).meta = { label };
    state.pos = labelEnd + 1;
    return true;
  };
}
