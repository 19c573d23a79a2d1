/**
 * Inline Markdown that hides text within a paragraph: code spans and HTML
 * comments, both of which may span lines (CommonMark). Only what decides
 * whether a line's first character is visible prose is modelled.
 */

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * For each paragraph line, whether the character at `offsets[k]` of line k
 * lies inside a code span or an HTML comment.
 */
export function hiddenByInlineSpans(lines: readonly string[], offsets: readonly number[]): boolean[] {
  const text = lines.join("\n");
  const spans = findHidingSpans(text);
  const hidden: boolean[] = [];
  let lineStart = 0;
  let spanIndex = 0;
  for (let k = 0; k < lines.length; k += 1) {
    const position = lineStart + (offsets[k] ?? 0);
    // Spans and positions both increase, so one pass over each suffices.
    while (spanIndex < spans.length && (spans[spanIndex]?.end ?? 0) <= position) spanIndex += 1;
    const span = spans[spanIndex];
    hidden.push(span !== undefined && span.start <= position);
    lineStart += (lines[k] ?? "").length + 1;
  }
  return hidden;
}

function findHidingSpans(text: string): Span[] {
  const nextCloser = backtickRunFinder(text);
  const spans: Span[] = [];
  let commentCloserMissing = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === "\\") {
      // An escaped backtick or `<` starts nothing.
      i += 2;
    } else if (char === "`") {
      let end = i;
      while (text[end] === "`") end += 1;
      const closer = nextCloser(end - i, end);
      if (closer === undefined) {
        i = end;
      } else {
        spans.push({ start: i, end: closer + (end - i) });
        i = closer + (end - i);
      }
    } else if (char === "<" && !commentCloserMissing && text.startsWith("<!--", i)) {
      // Searching from i + 2 accepts `<!-->` and `<!--->`, as CommonMark does.
      const close = text.indexOf("-->", i + 2);
      if (close === -1) {
        // No later `<!--` can close either; remembering it keeps the scan linear.
        commentCloserMissing = true;
        i += 4;
      } else {
        spans.push({ start: i, end: close + 3 });
        i = close + 3;
      }
    } else {
      i += 1;
    }
  }
  return spans;
}

/**
 * Finds, for a length and a position, the first maximal run of exactly that
 * many backticks starting at or after the position. Positions asked for must
 * never decrease, which lets each length keep a cursor and the whole search
 * stay linear.
 */
function backtickRunFinder(text: string): (length: number, from: number) => number | undefined {
  const startsByLength = new Map<number, number[]>();
  let i = text.indexOf("`");
  while (i !== -1) {
    let end = i;
    while (text[end] === "`") end += 1;
    const starts = startsByLength.get(end - i);
    if (starts === undefined) startsByLength.set(end - i, [i]);
    else starts.push(i);
    i = text.indexOf("`", end);
  }
  const cursorByLength = new Map<number, number>();
  return (length, from) => {
    const starts = startsByLength.get(length) ?? [];
    let cursor = cursorByLength.get(length) ?? 0;
    while (cursor < starts.length && (starts[cursor] ?? 0) < from) cursor += 1;
    cursorByLength.set(length, cursor);
    return starts[cursor];
  };
}
