/** `read_file`: numbered lines of a text file, bounded to 500 lines / 100 KB with a mark saying how to read on. */
import type { FileHandle } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import type { AgentTool, ToolResult } from "../tool.ts";
import { ConfinementError, openConfined } from "./confined-files.ts";
import { resolveWorktreePath } from "./paths.ts";
import { errorResult } from "./results.ts";
import { sniffBinary } from "./text-files.ts";

const READ_MAX_LINES = 500;
const READ_MAX_CHARS = 100_000;

const inputSchema = z.object({
  path: z.string().describe("File path relative to the worktree root."),
  start_line: z.number().int().min(1).optional().describe("First line to show (1-based, default 1)."),
  end_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Last line to show (inclusive); at most ${READ_MAX_LINES} lines are shown per call.`),
});

export const readFileTool: AgentTool<typeof inputSchema> = {
  name: "read_file",
  description: `Read a text file of the worktree with line numbers. Shows at most ${READ_MAX_LINES} lines or ${READ_MAX_CHARS / 1000} KB per call; when more exists, the result ends with a mark telling which start_line to read on from.`,
  inputSchema,
  readOnly: true,
  async run(input, context) {
    const resolved = await resolveWorktreePath(context.cwd, input.path);
    if (!resolved.ok) return errorResult(`Read ${input.path} refused`, resolved.error);
    const shown = resolved.relative;
    let handle;
    try {
      handle = await openConfined(resolved.root, resolved.absolute);
    } catch (error) {
      if (error instanceof ConfinementError) return errorResult(`Read ${shown} refused`, error.message);
      throw error;
    }
    if (handle === undefined) {
      return errorResult(
        `Read ${shown}: not found`,
        `There is no file at ${shown}. Use list_files to see what exists.`,
      );
    }
    try {
      return await readOpened(handle, shown, input.start_line ?? 1, input.end_line);
    } finally {
      await handle.close();
    }
  },
};

async function readOpened(
  handle: FileHandle,
  shown: string,
  start: number,
  end: number | undefined,
): Promise<ToolResult> {
  const info = await handle.stat();
  if (info.isDirectory()) {
    return errorResult(
      `Read ${shown}: directory`,
      `${shown} is a directory; use list_files to see its files.`,
    );
  }
  if (await sniffBinary(handle)) {
    return errorResult(
      `Read ${shown}: binary`,
      `${shown} is a binary file (${info.size} bytes); read_file shows text files only.`,
    );
  }
  if (end !== undefined && end < start) {
    return errorResult(`Read ${shown}: bad range`, `end_line (${end}) is before start_line (${start}).`);
  }
  return readRange(handle, shown, start, end);
}

/** Streams the file so a huge one is counted, not loaded. */
async function readRange(
  handle: FileHandle,
  shown: string,
  start: number,
  end: number | undefined,
): Promise<ToolResult> {
  const lastWanted = Math.min(end ?? Number.MAX_SAFE_INTEGER, start + READ_MAX_LINES - 1);
  const kept: string[] = [];
  let chars = 0;
  let total = 0;
  let stoppedForSize: number | undefined;
  const lines = createInterface({
    input: handle.createReadStream({ encoding: "utf8", start: 0, autoClose: false }),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    total += 1;
    if (total < start || total > lastWanted || stoppedForSize !== undefined) continue;
    if (chars + line.length > READ_MAX_CHARS) {
      if (kept.length > 0) {
        stoppedForSize = total;
        continue;
      }
      // A single line longer than the budget (minified code): show its beginning.
      kept.push(`${line.slice(0, READ_MAX_CHARS)} [… line clipped: ${line.length} characters …]`);
      chars = READ_MAX_CHARS;
      stoppedForSize = total + 1;
      continue;
    }
    kept.push(line);
    chars += line.length + 1;
  }
  if (total === 0) return { content: `${shown} is empty.`, isError: false, summary: `Read ${shown} (empty)` };
  if (start > total) {
    return errorResult(
      `Read ${shown}: past the end`,
      `${shown} has ${total} lines; start_line ${start} is past the end.`,
    );
  }
  const last = start + kept.length - 1;
  const width = String(last).length;
  const numbered = kept.map((line, index) => `${String(start + index).padStart(width)}\t${line}`).join("\n");
  const next = stoppedForSize ?? (last < total && (end === undefined || end > last) ? last + 1 : undefined);
  const mark =
    next === undefined || next > total
      ? ""
      : `\n[… shown lines ${start}–${last} of ${total}${stoppedForSize === undefined ? "" : ` (${READ_MAX_CHARS / 1000} KB limit)`}; lines ${next}–${total} not shown: call read_file with start_line: ${next} to read on …]`;
  const whole = start === 1 && last === total;
  return {
    content: numbered + mark,
    isError: false,
    summary: whole ? `Read ${shown} (${total} lines)` : `Read ${shown} lines ${start}–${last} of ${total}`,
  };
}
