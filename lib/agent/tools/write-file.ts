/** `write_file`: creates a file (and its directories) or replaces one whole, returning the diff. */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";
import { applyFileChange, type Transform } from "./file-change.ts";
import { resolveWorktreePath } from "./paths.ts";
import { errorResult } from "./results.ts";
import { keepTrailingNewline, lineEnding, withLineEnding } from "./text-files.ts";

const inputSchema = z.object({
  path: z.string().describe("File to write, relative to the worktree root; missing directories are created."),
  content: z.string().describe("The complete new content of the file."),
});

export const writeFileTool: AgentTool<typeof inputSchema> = {
  name: "write_file",
  description:
    "Create a file, or replace an existing file's whole content. Prefer edit_file for changing part of a file. An existing file keeps its line endings (CRLF stays CRLF) and whether it ends with a newline. Returns the diff against the previous content.",
  inputSchema,
  readOnly: false,
  async run(input, context) {
    const resolved = await resolveWorktreePath(context.cwd, input.path);
    if (!resolved.ok) return errorResult(`Write ${input.path} refused`, resolved.error);
    if (resolved.relative === ".")
      return errorResult(`Write ${input.path} refused`, "Give a file path, not the worktree root.");
    const transform: Transform = (current) => {
      if (current === undefined) return { content: input.content };
      const ending = lineEnding(current);
      return { content: keepTrailingNewline(current, withLineEnding(input.content, ending), ending) };
    };
    return applyFileChange(
      {
        root: resolved.root,
        absolute: resolved.absolute,
        relative: resolved.relative,
        verb: "Write",
        transform,
      },
      context,
    );
  },
};
