/** `edit_file`: replaces an exact piece of text, unique unless `replace_all`, and shows the diff. */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";
import { applyFileChange, type Transform } from "./file-change.ts";
import { resolveWorktreePath } from "./paths.ts";
import { errorResult } from "./results.ts";
import { keepTrailingNewline, lineEnding, withLineEnding } from "./text-files.ts";

const inputSchema = z.object({
  path: z
    .string()
    .describe("File to edit, relative to the worktree root. It must exist; use write_file to create files."),
  old_text: z
    .string()
    .describe(
      "Exact text to replace, including whitespace and indentation. Must occur exactly once unless replace_all.",
    ),
  new_text: z.string().describe("Text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring a unique one."),
});

export const editFileTool: AgentTool<typeof inputSchema> = {
  name: "edit_file",
  description:
    "Edit a text file by replacing old_text with new_text. old_text must match the file exactly (whitespace included) and occur once, unless replace_all is true; include enough surrounding lines to make it unique. The file keeps its line endings and final newline. Returns the unified diff.",
  inputSchema,
  readOnly: false,
  async run(input, context) {
    const resolved = await resolveWorktreePath(context.cwd, input.path);
    if (!resolved.ok) return errorResult(`Edit ${input.path} refused`, resolved.error);
    if (!resolved.exists) {
      return errorResult(
        `Edit ${resolved.relative}: not found`,
        `There is no file at ${resolved.relative}; use write_file to create it.`,
      );
    }
    if (input.old_text === "") {
      return errorResult(
        `Edit ${resolved.relative}: empty old_text`,
        "old_text is empty; give the exact text to replace.",
      );
    }
    if (input.old_text === input.new_text) {
      return errorResult(
        `Edit ${resolved.relative}: no change`,
        "old_text and new_text are identical; nothing to do.",
      );
    }
    const transform: Transform = (current) =>
      current === undefined
        ? { error: `There is no file at ${resolved.relative}; use write_file to create it.` }
        : replaceText(current, input.old_text, input.new_text, input.replace_all ?? false);
    return applyFileChange(
      {
        root: resolved.root,
        absolute: resolved.absolute,
        relative: resolved.relative,
        verb: "Edit",
        transform,
      },
      context,
    );
  },
};

/** Exported for tests: the replacement rules without the file system. */
export function replaceText(
  current: string,
  oldText: string,
  newText: string,
  replaceAll: boolean,
): { readonly content: string } | { readonly error: string } {
  const ending = lineEnding(current);
  // The model writes `\n`; in a CRLF file the text it means has `\r\n`.
  const candidates = [withLineEnding(oldText, ending), oldText];
  for (const needle of candidates) {
    const positions = occurrences(current, needle);
    if (positions.length === 0) continue;
    if (positions.length > 1 && !replaceAll) {
      const lines = positions.slice(0, 10).map((position) => lineNumberAt(current, position));
      return {
        error: `old_text matches ${positions.length} times (at lines ${lines.join(", ")}${positions.length > 10 ? ", …" : ""}). Add surrounding lines to old_text so it matches exactly once, or set replace_all: true to change every occurrence.`,
      };
    }
    const replacement = withLineEnding(newText, ending);
    const updated = current.split(needle).join(replacement);
    return { content: keepTrailingNewline(current, updated, ending) };
  }
  return { error: notFoundMessage(current, oldText) };
}

function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    positions.push(index);
  }
  return positions;
}

function lineNumberAt(text: string, position: number): number {
  let line = 1;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < position;
    index = text.indexOf("\n", index + 1)
  )
    line += 1;
  return line;
}

/** Points at the usual cause: indentation or spacing that differs from the file. */
function notFoundMessage(current: string, oldText: string): string {
  const squash = (text: string): string => text.replace(/\s+/g, " ").trim();
  const base =
    "old_text was not found (0 matches). It must match the file exactly, including indentation, spaces and line breaks; read_file the region again and copy it.";
  const firstLine = oldText
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
  if (firstLine !== undefined && squash(current).includes(squash(oldText))) {
    const at = current.split(/\r?\n/).findIndex((line) => line.includes(firstLine));
    return `${base} Text with different whitespace exists${at === -1 ? "" : ` near line ${at + 1}`}.`;
  }
  return base;
}
