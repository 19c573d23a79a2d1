/**
 * The part of a document the Markdown parser is given, so its work stays in proportion to the
 * text. A Markdown parser is linear on ordinary Markdown but not on every shape (micromark, the
 * sanitiser's first parser, was the worst; markdown-it recurses per container): each line pays for every
 * container (quote, list item) it sits in, and thousands of them on one line exhaust its stack;
 * inside one paragraph, brackets nested in brackets, HTML openers that never close, and sheer
 * length cost it time that grows with the square of their number. So one pass over the lines
 * measures these, and a document that overruns a bound is cut, and the cut says so.
 *
 * A cut falls at the start of a run of lines after a blank line, or at the start of a block, or
 * between two lines of a code block: every inline construct (a link title, an image's alt text, a
 * tag) has ended there, so none of what stays can turn into half of a hidden construct. What is
 * still open there (a fenced block, an HTML comment, a hidden element, an attribute value) stays
 * open to the end, which the sanitiser reads as hiding the rest or as code, as GitHub would. One
 * thing reaches back: a reference (`[text][label]`, `![alt]`, `[^note]`) before the cut whose
 * definition lies after it. GitHub hides its label (or alt text), so a definition with a
 * placeholder address is put in front for each such label: the label is then hidden here too.
 */
import { blockCut, MAX_PARAGRAPH_CHARS } from "./markdown-blocks.ts";

/**
 * Half of GitHub's limit on a comment's body (65,536), and more than a prompt keeps of any one
 * text (24,000 characters): the parser's time on hostile shapes of this size stays well under a
 * second.
 */
export const MAX_MARKDOWN_CHARS = 32_768;
/** Deeper than any real comment nests quotes and lists; each level costs the parser on every line. */
const MAX_NESTING = 100;

/** Brackets nested this deep are not prose; each level makes the parser go over its content again. */
const MAX_BRACKET_NESTING = 32;
/** Unclosed `<!--`, `<!x` and `<?` in one paragraph; each makes the parser read to the paragraph's end. */
const MAX_HTML_OPENERS = 64;

/** Room left under the size limit for the note, so that sanitising the output again cuts nothing more. */
const NOTE_ROOM = 1_024;

/** Where a reference whose definition was cut off points: nowhere, and saying why. */
const CUT_DESTINATION = "#text-left-out";
const CUT_FOOTNOTE = "(text left out)";

export interface BoundedMarkdown {
  /** What the parser reads: definitions standing in for cut ones, then the text up to the cut. */
  readonly text: string;
  /** Why text was left out, to be shown after the sanitised text; undefined when nothing was. */
  readonly note: string | undefined;
}

export function boundMarkdown(text: string): BoundedMarkdown {
  const overrun = firstOverrun(text);
  if (overrun === undefined) return { text, note: undefined };
  const kept = text.slice(0, overrun.cut);
  const left = text.length - overrun.cut;
  return {
    text: standInDefinitions(kept, text.slice(overrun.cut)) + kept,
    note: `(…truncated: ${left.toLocaleString("en-US")} characters left out, ${overrun.reason})`,
  };
}

interface Overrun {
  /** Where the kept text ends: the start of a run of lines, or of a block, or a line in code. */
  readonly cut: number;
  readonly reason: string;
}

/**
 * One pass over the lines up to the size limit. Paragraphs (runs of lines between blank lines) are
 * the unit of inline parsing, and the parser's time on a few inline shapes grows with the square of
 * their number in one paragraph: brackets nested inside each other (`![![![…`) and HTML openers
 * that look for an end which never comes (`<!--`, `<!x`, `<?`). So those are counted per paragraph.
 */
function firstOverrun(text: string): Overrun | undefined {
  const end = Math.min(text.length, MAX_MARKDOWN_CHARS);
  let paragraph = 0;
  let brackets = 0;
  let deepestBrackets = 0;
  let longRun = false;
  /** The last run of lines starting within the size limit (less room for the note). */
  let lastRunInLimit = 0;
  // Most paragraphs have no `<!`, `<?` or `[`: the next of each, looked up again only once passed
  // (so the text is searched once in all), lets the loops over characters skip them.
  const nextOpener = nextOf(text, ["<!", "<?"]);
  const nextBracket = nextOf(text, ["["]);
  const openersOverrun = (runEnd: number): Overrun | undefined => {
    if (nextOpener(paragraph) >= runEnd) return undefined;
    if (unclosedOpeners(text, paragraph, runEnd) <= MAX_HTML_OPENERS) return undefined;
    return earliest(text, longRun, {
      cut: paragraph,
      reason: `more than ${MAX_HTML_OPENERS} unclosed \`<!\` or \`<?\` in one paragraph`,
    });
  };
  for (let start = 0; start < end;) {
    const newline = text.indexOf("\n", start);
    const lineEnd = newline === -1 ? text.length : newline;
    const scanEnd = Math.min(lineEnd, end);
    if (blank(text, start, scanEnd)) {
      const overrun = openersOverrun(start);
      if (overrun) return overrun;
      paragraph = lineEnd + 1;
      if (paragraph <= MAX_MARKDOWN_CHARS - NOTE_ROOM) lastRunInLimit = paragraph;
      brackets = 0;
      deepestBrackets = 0;
    } else if (nesting(text, start, lineEnd) > MAX_NESTING) {
      return earliest(text, longRun, { cut: paragraph, reason: `nesting deeper than ${MAX_NESTING} levels` });
    }
    longRun ||= lineEnd - paragraph > MAX_PARAGRAPH_CHARS;
    // With no bracket open, a line without `[` changes nothing.
    const countFrom = brackets > 0 ? start : Math.min(nextBracket(start), scanEnd);
    for (let at = countFrom; at < scanEnd; at += 1) {
      const char = text.charCodeAt(at);
      if (char === 0x5b) deepestBrackets = Math.max(deepestBrackets, ++brackets);
      else if (char === 0x5d) brackets = Math.max(0, brackets - 1);
    }
    if (deepestBrackets > MAX_BRACKET_NESTING) {
      const reason = `brackets nested deeper than ${MAX_BRACKET_NESTING} levels`;
      return earliest(text, longRun, { cut: paragraph, reason });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  const overrun = openersOverrun(end);
  if (overrun) return overrun;
  if (!longRun && text.length <= MAX_MARKDOWN_CHARS) return undefined;
  const tooLong = text.length > MAX_MARKDOWN_CHARS;
  // With no run of lines longer than a paragraph may be, the last blank line is near the limit.
  if (!longRun)
    return {
      cut: lastRunInLimit,
      reason: `longer than ${MAX_MARKDOWN_CHARS.toLocaleString("en-US")} characters`,
    };
  return blockCut(
    text,
    tooLong ? { chars: MAX_MARKDOWN_CHARS, cutBefore: MAX_MARKDOWN_CHARS - NOTE_ROOM } : undefined,
  );
}

/**
 * Where the next of `needles` starts at or after a position (the text's length when none does).
 * Positions asked for must not go back; each part of the text is searched once.
 */
function nextOf(text: string, needles: readonly string[]): (from: number) => number {
  let found = -1;
  return (from) => {
    if (found < from) {
      found = text.length;
      for (const needle of needles) {
        const at = text.indexOf(needle, from);
        if (at !== -1 && at < found) found = at;
      }
    }
    return found;
  };
}

/** Whether `[start, end)` is only white space (as `String.prototype.trim` reads it). */
function blank(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) {
    const char = text.charCodeAt(at);
    if (char === 0x20 || (char >= 0x09 && char <= 0x0d)) continue;
    if (char < 0x80 || !/\s/.test(text[at] ?? "")) return false;
  }
  return true;
}

/**
 * HTML openers in `[start, end)` with no end of their kind after them: `<!--` without `-->`,
 * `<![CDATA[` without `]]>`, `<?` without `?>`, `<!x` without `>`. Only these cost the parser a
 * read to the paragraph's end each; one read from the back finds them all.
 */
function unclosedOpeners(text: string, start: number, end: number): number {
  let count = 0;
  let tagEnd = false;
  let commentEnd = false;
  let cdataEnd = false;
  let instructionEnd = false;
  for (let at = end - 1; at >= start; at -= 1) {
    const char = text.charCodeAt(at);
    if (char === 0x3e) {
      tagEnd = true;
      commentEnd ||= text[at - 1] === "-" && text[at - 2] === "-";
      cdataEnd ||= text[at - 1] === "]" && text[at - 2] === "]";
      instructionEnd ||= text[at - 1] === "?";
    } else if (char !== 0x3c) {
      continue;
    } else if (text[at + 1] === "?") {
      if (!instructionEnd) count += 1;
    } else if (text[at + 1] === "!") {
      const closed = text.startsWith("<!--", at)
        ? commentEnd
        : text.startsWith("<![CDATA[", at)
          ? cdataEnd
          : tagEnd;
      if (!closed) count += 1;
    }
  }
  return count;
}

/**
 * A shape found at `overrun.cut`, or a paragraph before it that is too long: the block structure
 * of the text before the cut says which comes first.
 */
function earliest(text: string, longRun: boolean, overrun: Overrun): Overrun {
  if (!longRun) return overrun;
  const before = blockCut(text.slice(0, overrun.cut), undefined);
  return before ?? overrun;
}

/**
 * An upper bound on the containers a line sits in: every `>` and list marker of its prefix opens
 * or continues one, and a container continued by indentation alone takes at least two columns.
 */
function nesting(text: string, start: number, end: number): number {
  let markers = 0;
  let columns = 0;
  let at = start;
  while (at < end && markers + columns / 2 <= MAX_NESTING) {
    const char = text.charCodeAt(at);
    if (char === 0x20) columns += 1;
    else if (char === 0x09) columns += 4 - (columns % 4);
    else if (char === 0x3e) markers += 1;
    else {
      const marker = listMarkerEnd(text, at, end);
      if (marker === undefined) break;
      markers += 1;
      at = marker;
      continue;
    }
    at += 1;
  }
  return markers + columns / 2;
}

/** End of a list marker (`-`, `*`, `+`, `1.`, `1)`) at `at`, if one is there and is followed by a blank or the line's end. */
function listMarkerEnd(text: string, at: number, end: number): number | undefined {
  let after = at;
  const char = text[at];
  if (char === "-" || char === "*" || char === "+") after = at + 1;
  else {
    while (after < end && after - at < 9 && /[0-9]/.test(text[after] ?? "")) after += 1;
    if (after === at || (text[after] !== "." && text[after] !== ")")) return undefined;
    after += 1;
  }
  return after === end || text[after] === " " || text[after] === "\t" ? after : undefined;
}

/** A bracketed label (link text, reference label, footnote label): no bracket inside, at most 999 characters. */
const LABEL = /\[((?:[^[\]\\]|\\[\s\S]){1,999})\]/g;
/** The same, as a definition opens: `[label]:` or `[^label]:`. */
const DEFINED_LABEL = /\[((?:[^[\]\\]|\\[\s\S]){1,999})\]:/g;

/** Labels compare as CommonMark says: case-folded, runs of white space as one space. */
function normalise(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, " ")
    .trim()
    .toLowerCase()
    .toUpperCase();
}

/**
 * A definition for each label used in the kept text and defined (or seeming to be) in the cut
 * text. Reading too many as definitions only hides more; each is on its own, between blank lines.
 */
function standInDefinitions(kept: string, cutOff: string): string {
  const used = new Set<string>();
  for (const match of kept.matchAll(LABEL)) used.add(normalise(match[1] ?? ""));
  const defined = new Map<string, string>();
  for (const match of cutOff.matchAll(DEFINED_LABEL)) {
    const label = match[1] ?? "";
    const key = normalise(label);
    if (key === "" || key === "^" || /\n[ \t]*\n/.test(label) || !used.has(key)) continue;
    defined.set(key, label);
  }
  let definitions = "";
  for (const label of defined.values()) {
    const target = label.startsWith("^") ? CUT_FOOTNOTE : CUT_DESTINATION;
    definitions += `[${label}]: ${target}\n\n`;
  }
  return definitions;
}
