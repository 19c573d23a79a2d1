/**
 * `search_text`: lines matching a literal string (or a regular expression) in the worktree's
 * files, `path:line: text`. ripgrep does the work when it is on PATH; a JS search that follows
 * the same rules (.gitignore respected, `.git` and binary files skipped, symlinks not followed)
 * stands in when it is not (search-fallback.ts).
 */
import { confirmMatches } from "./confirm-matches.ts";
import { spawn } from "node:child_process";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { AgentTool, ToolContext, ToolResult } from "../tool.ts";
import { resolveWorktreePath } from "./paths.ts";
import { clip, errorResult } from "./results.ts";
import { searchWithoutRipgrep, type SearchMatch, type SearchOutcome } from "./search-fallback.ts";

const SEARCH_MAX_MATCHES = 200;
const SEARCH_DEFAULT_MATCHES = 50;
/** Matched lines longer than this are clipped: minified files would flood the context. */
const LINE_CHARS = 300;

export interface SearchTextOptions {
  /** `auto` uses ripgrep when it runs from the command's PATH; `never` always uses the JS walk. */
  readonly ripgrep?: "auto" | "never";
}

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe("Text to find (literal, case-sensitive) or, with regex: true, a regular expression."),
  path: z
    .string()
    .optional()
    .describe("File or directory to search, relative to the worktree root (default: all)."),
  regex: z
    .boolean()
    .optional()
    .describe("Treat pattern as a regular expression (default false: literal text)."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Most matches to return (default ${SEARCH_DEFAULT_MATCHES}, maximum ${SEARCH_MAX_MATCHES}).`),
});

export function createSearchTextTool(options: SearchTextOptions = {}): AgentTool<typeof inputSchema> {
  return {
    name: "search_text",
    description: `Search the worktree's files for lines containing a literal string (case-sensitive), or a regular expression with regex: true. Results are "path:line: text", at most ${SEARCH_MAX_MATCHES} matches; gitignored files, .git and binary files are skipped. Matches one line at a time.`,
    inputSchema,
    readOnly: true,
    async run(input, context) {
      const summaryHead = `Search "${clip(input.pattern, 40)}"`;
      if (input.pattern.includes("\n")) {
        return errorResult(
          `${summaryHead}: multi-line`,
          "search_text matches within one line; search for a single line.",
        );
      }
      const requested = input.path ?? ".";
      const resolved = await resolveWorktreePath(context.cwd, requested);
      if (!resolved.ok) return errorResult(`${summaryHead} refused`, resolved.error);
      const target = await stat(resolved.absolute).catch(() => undefined);
      if (!target) {
        return errorResult(`${summaryHead}: no such path`, `There is nothing at ${resolved.relative}.`);
      }
      const limit = Math.min(input.limit ?? SEARCH_DEFAULT_MATCHES, SEARCH_MAX_MATCHES);
      const root = await realpath(context.cwd);
      const query: Query = {
        pattern: input.pattern,
        regex: input.regex ?? false,
        target: resolved.relative,
        wanted: limit + 1,
      };
      const ripgrep = options.ripgrep === "never" ? undefined : await searchWithRipgrep(root, query, context);
      const outcome =
        ripgrep ??
        (await searchWithoutRipgrep(
          root,
          { ...query, targetIsDirectory: target.isDirectory() },
          context.env,
          context.signal,
        ));
      if ("error" in outcome) return errorResult(`${summaryHead}: error`, outcome.error);
      const matches = await confirmMatches(root, outcome.matches);
      return formatMatches(summaryHead, matches, limit, resolved.relative);
    },
  };
}

export const searchTextTool = createSearchTextTool();

interface Query {
  readonly pattern: string;
  readonly regex: boolean;
  /** File or directory, relative to the root. */
  readonly target: string;
  /** One more than the limit, so we know whether the result was cut. */
  readonly wanted: number;
}

function formatMatches(
  summaryHead: string,
  matches: readonly SearchMatch[],
  limit: number,
  target: string,
): ToolResult {
  const where = target === "." ? "" : ` in ${target}`;
  if (matches.length === 0) {
    return { content: `No matches${where}.`, isError: false, summary: `${summaryHead}${where} (0 matches)` };
  }
  const shown = matches.slice(0, limit);
  const lines = shown.map((match) => `${match.path}:${match.line}: ${clipLine(match.text)}`);
  const cut = matches.length > limit;
  const mark = cut
    ? `\n[… stopped at ${limit} matches; more exist. Narrow the pattern or path${limit < SEARCH_MAX_MATCHES ? `, or raise limit (up to ${SEARCH_MAX_MATCHES})` : ""} …]`
    : "";
  return {
    content: lines.join("\n") + mark,
    isError: false,
    summary: `${summaryHead}${where} (${shown.length}${cut ? "+" : ""} matches)`,
  };
}

function clipLine(text: string): string {
  return text.length <= LINE_CHARS
    ? text
    : `${text.slice(0, LINE_CHARS)} [… ${text.length - LINE_CHARS} characters clipped …]`;
}

/** `undefined` when ripgrep cannot be started, so the walk takes over. */
async function searchWithRipgrep(
  root: string,
  query: Query,
  context: ToolContext,
): Promise<SearchOutcome | undefined> {
  const args = [
    "--json",
    "--no-config",
    "--hidden",
    "--no-require-git",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--glob",
    "!.git",
    "--sort",
    "path",
    ...(query.regex ? [] : ["--fixed-strings"]),
    "-e",
    query.pattern,
    "--",
    query.target,
  ];
  return new Promise((resolve) => {
    const child = spawn("rg", args, { cwd: root, env: context.env, stdio: ["ignore", "pipe", "pipe"] });
    const matches: SearchMatch[] = [];
    let buffered = "";
    let stderr = "";
    let enough = false;
    const onAbort = (): void => {
      child.kill("SIGKILL");
    };
    context.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (enough) return;
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const match = parseRipgrepLine(line);
        if (match) matches.push(match);
        if (matches.length >= query.wanted) {
          enough = true;
          child.kill("SIGKILL");
          break;
        }
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", () => {
      context.signal.removeEventListener("abort", onAbort);
      resolve(undefined);
    });
    child.on("close", (code) => {
      context.signal.removeEventListener("abort", onAbort);
      // ripgrep exits 1 for "no match" and 2 for errors (a bad regex, an unreadable file); an
      // old ripgrep that lacks one of our flags is treated as absent.
      if (code === 2 && /unexpected argument|Found argument|unrecognized/i.test(stderr)) {
        resolve(undefined);
      } else if (code === 2 && matches.length === 0 && stderr.trim() !== "") {
        resolve({ error: `ripgrep: ${stderr.trim().slice(0, 2000)}` });
      } else {
        resolve({ matches });
      }
    });
  });
}

interface RipgrepMatch {
  readonly type: string;
  readonly data?: {
    readonly path?: { readonly text?: string; readonly bytes?: string };
    readonly lines?: { readonly text?: string; readonly bytes?: string };
    readonly line_number?: number;
  };
}

function parseRipgrepLine(line: string): SearchMatch | undefined {
  if (line === "") return undefined;
  const event = JSON.parse(line) as RipgrepMatch;
  if (event.type !== "match" || event.data === undefined) return undefined;
  const file = decodeRipgrepText(event.data.path);
  const text = decodeRipgrepText(event.data.lines).replace(/\r?\n$/, "");
  return {
    path: path.posix.normalize(file.split(path.sep).join("/")),
    line: event.data.line_number ?? 0,
    text,
  };
}

/** ripgrep sends invalid UTF-8 as base64 `bytes`. */
function decodeRipgrepText(value: { readonly text?: string; readonly bytes?: string } | undefined): string {
  if (value?.text !== undefined) return value.text;
  return value?.bytes === undefined ? "" : Buffer.from(value.bytes, "base64").toString("utf8");
}
