/**
 * `list_files`: the worktree's files (gitignored ones and `.git` left out), optionally filtered
 * by a glob. In a git worktree git lists them (git-files.ts); elsewhere a JS walk applies the
 * same rules.
 */
import { lstat, realpath, stat } from "node:fs/promises";
import path from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import type { AgentTool } from "../tool.ts";
import { gitListedFiles } from "./git-files.ts";
import { resolveWorktreePath } from "./paths.ts";
import { errorResult } from "./results.ts";
import { walkFiles, type WalkEntry } from "./walk.ts";

const LIST_MAX_ENTRIES = 500;
/** Past this many files the JS walk stops counting too; the mark then says "more than". */
const COUNT_CAP = 50_000;

const inputSchema = z.object({
  path: z
    .string()
    .optional()
    .describe("Directory to list, relative to the worktree root (default: the root)."),
  glob: z
    .string()
    .optional()
    .describe(
      "Only files matching this glob, relative to `path`: `**/*.ts`, `src/**/test_*.py`; `*.md` matches at any depth.",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Most files to return (default and maximum ${LIST_MAX_ENTRIES}).`),
});

export const listFilesTool: AgentTool<typeof inputSchema> = {
  name: "list_files",
  description: `List files of the worktree recursively, one path per line relative to the root. Files ignored by .gitignore and the .git directory are left out; symlinks are listed, marked with " -> symlink". At most ${LIST_MAX_ENTRIES} entries; narrow with path or glob when the list is cut.`,
  inputSchema,
  readOnly: true,
  async run(input, context) {
    const requested = input.path ?? ".";
    const resolved = await resolveWorktreePath(context.cwd, requested);
    if (!resolved.ok) return errorResult(`List ${requested} refused`, resolved.error);
    const shown = resolved.relative;
    const info = await stat(resolved.absolute).catch(() => undefined);
    if (info === undefined) {
      return errorResult(`List ${shown}: not found`, `There is no directory at ${shown}.`);
    }
    if (!info.isDirectory()) {
      return { content: shown, isError: false, summary: `List ${shown} (a file)` };
    }
    const limit = Math.min(input.limit ?? LIST_MAX_ENTRIES, LIST_MAX_ENTRIES);
    const matches =
      input.glob === undefined ? () => true : picomatch(input.glob, { basename: true, dot: true });
    const prefix = shown === "." ? "" : `${shown}/`;
    const root = await realpath(context.cwd);
    const wanted = (relative: string) => matches(relative.slice(prefix.length));
    const gitPaths = await gitListedFiles(root, shown, context.env, context.signal);
    const { listed, found } =
      gitPaths === undefined
        ? await fromWalk(walkFiles(root, shown), wanted, limit)
        : await fromGit(root, gitPaths, wanted, limit);
    const filter = input.glob === undefined ? "" : ` matching ${input.glob}`;
    if (found === 0) {
      return {
        content: `No files${filter} under ${shown} (gitignored files are not listed).`,
        isError: false,
        summary: `List ${shown}${filter} (0 files)`,
      };
    }
    const more = found - listed.length;
    const mark =
      more > 0
        ? `\n[… listing cut at ${listed.length} of ${found >= COUNT_CAP ? `more than ${COUNT_CAP}` : found} files; narrow it with path or glob …]`
        : "";
    return {
      content: listed.join("\n") + mark,
      isError: false,
      summary: `List ${shown}${filter} (${found >= COUNT_CAP ? `${COUNT_CAP}+` : found} files)`,
    };
  },
};

interface Listing {
  /** The lines shown, symlinks marked. */
  readonly listed: string[];
  /** Every file that matched; the walk stops counting at COUNT_CAP. */
  readonly found: number;
}

function line(entry: WalkEntry): string {
  return entry.symlink ? `${entry.relative} -> symlink` : entry.relative;
}

async function fromWalk(
  entries: AsyncIterable<WalkEntry>,
  wanted: (relative: string) => boolean,
  limit: number,
): Promise<Listing> {
  const listed: string[] = [];
  let found = 0;
  for await (const entry of entries) {
    if (!wanted(entry.relative)) continue;
    found += 1;
    if (listed.length < limit) listed.push(line(entry));
    if (found >= COUNT_CAP) break;
  }
  return { listed, found };
}

/**
 * Git lists what its index holds: the entries shown are looked up on disk, to leave out a
 * tracked file deleted since and to mark symlinks. The ones past the limit are counted unseen
 * (a deleted one among them still counts).
 */
async function fromGit(
  root: string,
  paths: readonly string[],
  wanted: (relative: string) => boolean,
  limit: number,
): Promise<Listing> {
  const matching = paths.filter(wanted);
  const listed: string[] = [];
  let deleted = 0;
  let next = 0;
  // Looked up a batch at a time, in parallel; a deleted file makes room for the next one.
  while (listed.length < limit && next < matching.length) {
    const batch = matching.slice(next, next + limit - listed.length);
    next += batch.length;
    const infos = await Promise.all(
      batch.map((relative) => lstat(path.join(root, relative)).catch(() => undefined)),
    );
    for (const [index, info] of infos.entries()) {
      if (info === undefined) deleted += 1;
      else listed.push(line({ relative: batch[index]!, symlink: info.isSymbolicLink() }));
    }
  }
  return { listed, found: matching.length - deleted };
}
