/**
 * `search_text` without ripgrep. The files come from git when the worktree is a git worktree
 * (git-files.ts), from the JS walk otherwise; each is read whole, in path order, and skipped if
 * a NUL in its first bytes says it is binary. A literal pattern is found
 * with `Buffer.indexOf` before any line is cut out or decoded, so a file without the text costs
 * one scan of its bytes; a regular expression is tested line by line. No file is read once the
 * first `wanted` matches are known. Git's list differs from
 * ripgrep's in one way: a tracked file that .gitignore matches is searched, as git tracks it.
 */
import { closeSync, constants, openSync, readSync } from "node:fs";
import path from "node:path";
import { gitListedFiles } from "./git-files.ts";
import { looksBinary } from "./text-files.ts";
import { walkFiles } from "./walk.ts";

/** Files this large are skipped, as they are almost never source. */
const FALLBACK_MAX_FILE_BYTES = 5_000_000;
/** Longest run of synchronous reads before the event loop gets a turn. */
const SLICE_MS = 20;
const NEWLINE = 0x0a;

export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

export type SearchOutcome = { readonly matches: SearchMatch[] } | { readonly error: string };

export interface FallbackQuery {
  readonly pattern: string;
  readonly regex: boolean;
  /** File or directory, relative to the root; `.` for all. */
  readonly target: string;
  readonly targetIsDirectory: boolean;
  /** Stop once this many matches are known. */
  readonly wanted: number;
}

type FileMatcher = (bytes: Buffer, relative: string, wanted: number) => SearchMatch[];

export async function searchWithoutRipgrep(
  root: string,
  query: FallbackQuery,
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  const matcher = createMatcher(query);
  if ("error" in matcher) return matcher;
  const files = query.targetIsDirectory
    ? ((await gitListedFiles(root, query.target, env, signal)) ?? walkedFiles(root, query.target))
    : [query.target];
  return { matches: await searchFiles(root, files, matcher.match, query.wanted, signal) };
}

async function* walkedFiles(root: string, start: string): AsyncGenerator<string> {
  for await (const entry of walkFiles(root, start)) if (!entry.symlink) yield entry.relative;
}

/**
 * Reads file after file with synchronous calls into one reused buffer: for the small files of
 * a source tree, the thread-pool round trips of async reads (open, stat, read, close) cost more
 * than the reading. The event loop gets a turn every SLICE_MS, so the process stays responsive.
 */
async function searchFiles(
  root: string,
  files: Iterable<string> | AsyncIterable<string>,
  match: FileMatcher,
  wanted: number,
  signal: AbortSignal,
): Promise<SearchMatch[]> {
  const buffer = Buffer.allocUnsafe(FALLBACK_MAX_FILE_BYTES + 1);
  const matches: SearchMatch[] = [];
  let sliceStart = performance.now();
  for await (const relative of files) {
    const bytes = readSearchable(path.join(root, relative), buffer);
    if (bytes !== undefined) matches.push(...match(bytes, relative, wanted - matches.length));
    if (matches.length >= wanted || signal.aborted) break;
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return matches;
}

/**
 * The file's bytes (a view of `buffer`, valid until the next read), or `undefined` for what is
 * not searched: symlinks (never followed, the target may be outside the worktree), directories
 * and other non-files, files over the size cap, binary files, and files that vanished or
 * cannot be read.
 */
function readSearchable(absolute: string, buffer: Buffer): Buffer | undefined {
  let descriptor: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (reading it then fails at once).
    descriptor = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    let filled = 0;
    // Reads until end of file or one byte past the cap, which marks the file as too large.
    while (filled < buffer.length) {
      const read = readSync(descriptor, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (filled > FALLBACK_MAX_FILE_BYTES) return undefined;
    const bytes = buffer.subarray(0, filled);
    return looksBinary(bytes) ? undefined : bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

function createMatcher(query: FallbackQuery): { match: FileMatcher } | { error: string } {
  if (!query.regex) return { match: literalMatcher(Buffer.from(query.pattern, "utf8")) };
  let expression: RegExp;
  try {
    expression = new RegExp(query.pattern, "u");
  } catch (error) {
    return { error: `Invalid regular expression: ${(error as Error).message}` };
  }
  return { match: regexMatcher(expression) };
}

/** Finds the bytes first and only then works out the line: its number, and its text. */
function literalMatcher(needle: Buffer): FileMatcher {
  return (bytes, relative, wanted) => {
    const matches: SearchMatch[] = [];
    let line = 1;
    let counted = 0;
    let hit = bytes.indexOf(needle);
    while (hit >= 0 && matches.length < wanted) {
      const start = hit === 0 ? 0 : bytes.lastIndexOf(NEWLINE, hit - 1) + 1;
      for (
        let at = bytes.indexOf(NEWLINE, counted);
        at >= 0 && at < start;
        at = bytes.indexOf(NEWLINE, at + 1)
      ) {
        line += 1;
      }
      counted = start;
      const newline = bytes.indexOf(NEWLINE, hit);
      const end = newline < 0 ? bytes.length : newline;
      matches.push({ path: relative, line, text: withoutCarriageReturn(bytes.toString("utf8", start, end)) });
      if (newline < 0) break;
      hit = bytes.indexOf(needle, newline + 1);
    }
    return matches;
  };
}

function regexMatcher(expression: RegExp): FileMatcher {
  return (bytes, relative, wanted) => {
    const text = bytes.toString("utf8");
    const matches: SearchMatch[] = [];
    let start = 0;
    let line = 1;
    // A final newline ends the last line; it does not start another one.
    while (start < text.length && matches.length < wanted) {
      const newline = text.indexOf("\n", start);
      const end = newline < 0 ? text.length : newline;
      const content = withoutCarriageReturn(text.slice(start, end));
      if (expression.test(content)) matches.push({ path: relative, line, text: content });
      start = end + 1;
      line += 1;
    }
    return matches;
  };
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
