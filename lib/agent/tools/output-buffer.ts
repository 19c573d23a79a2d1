/**
 * Keeps the head and the tail of a command's output within a fixed budget while it streams, so
 * `yes` or a chatty build cannot exhaust memory or the model's context; what is cut is marked.
 */

export interface OutputLimits {
  readonly headLines: number;
  readonly headChars: number;
  readonly tailLines: number;
  readonly tailChars: number;
}

const SHELL_OUTPUT_LIMITS: OutputLimits = {
  headLines: 100,
  headChars: 15_000,
  tailLines: 100,
  tailChars: 15_000,
};

export interface OutputCollector {
  push(text: string): void;
  /** Output that never reached the collector (the sandbox cut it from the middle): the mark says so. */
  unseen(bytes: number): void;
  /** The kept output, with `[… N lines cut …]` where the middle was dropped. */
  text(): string;
}

export function createOutputCollector(limits: OutputLimits = SHELL_OUTPUT_LIMITS): OutputCollector {
  let head = "";
  let headLines = 0;
  let headFull = false;
  let tail = "";
  /** What was already dropped from the front of `tail` while streaming. */
  let droppedChars = 0;
  let droppedLines = 0;
  let unseenBytes = 0;

  function pushHead(text: string): string {
    let taken = 0;
    while (taken < text.length && headLines < limits.headLines && head.length < limits.headChars) {
      const newline = text.indexOf("\n", taken);
      const room = limits.headChars - head.length;
      const end = newline === -1 ? text.length : newline + 1;
      const piece = text.slice(taken, Math.min(end, taken + room));
      head += piece;
      taken += piece.length;
      if (piece.endsWith("\n")) headLines += 1;
    }
    if (taken < text.length) headFull = true;
    return text.slice(taken);
  }

  function push(text: string): void {
    const rest = headFull ? text : pushHead(text);
    if (rest === "") return;
    tail += rest;
    if (tail.length > 2 * limits.tailChars) {
      const drop = tail.length - limits.tailChars;
      droppedLines += countNewlines(tail.slice(0, drop));
      droppedChars += drop;
      tail = tail.slice(drop);
    }
  }

  function text(): string {
    const tailLinesCount = countNewlines(tail) + (tail.endsWith("\n") || tail === "" ? 0 : 1);
    if (
      unseenBytes === 0 &&
      droppedChars === 0 &&
      tail.length <= limits.tailChars &&
      tailLinesCount <= limits.tailLines
    ) {
      return head + tail;
    }
    // Keep whole lines at the end within both tail limits.
    let start = Math.max(0, tail.length - limits.tailChars);
    const lineStarts = lineStartsFromEnd(tail, limits.tailLines);
    start = Math.max(start, lineStarts);
    if (start > 0 && tail[start - 1] !== "\n") {
      const nextLine = tail.indexOf("\n", start);
      if (nextLine !== -1 && nextLine + 1 < tail.length) start = nextLine + 1;
    }
    const cutLines = droppedLines + countNewlines(tail.slice(0, start));
    const cutChars = droppedChars + start;
    const more = unseenBytes > 0 ? "more than " : "";
    const mark =
      cutLines > 0 ? `[… ${more}${cutLines} lines cut …]` : `[… ${more}${cutChars} characters cut …]`;
    const separator = head.endsWith("\n") || head === "" ? "" : "\n";
    return `${head}${separator}${mark}\n${tail.slice(start)}`;
  }

  return {
    push,
    text,
    unseen: (bytes) => {
      unseenBytes += bytes;
    },
  };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

/** Index where the last `lines` lines of `text` begin (a trailing newline does not start a line). */
function lineStartsFromEnd(text: string, lines: number): number {
  let index = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let seen = 0; seen < lines; seen += 1) {
    index = text.lastIndexOf("\n", index - 1);
    if (index === -1) return 0;
  }
  return index + 1;
}
