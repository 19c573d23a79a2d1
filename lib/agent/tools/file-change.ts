/** The shared second half of `edit_file` and `write_file`: hooks, atomic write, diff, result. */
import type { ToolContext, ToolResult } from "../tool.ts";
import { diffStat, formatDiffStat, shownDiff, unifiedDiff } from "./diffs.ts";
import { runEditHooks } from "./edit-hooks.ts";
import { errorResult } from "./results.ts";
import { ConfinementError, writeConfined } from "./confined-files.ts";
import { readTextFile } from "./text-files.ts";

/** The new content from the current one (`undefined`: no file yet), or why the change cannot be made. */
export type Transform = (
  current: string | undefined,
) => { readonly content: string } | { readonly error: string };

export interface FileChange {
  /** The worktree root the file must stay inside. */
  readonly root: string;
  readonly absolute: string;
  readonly relative: string;
  /** `Edit` or `Write`, for the summary line. */
  readonly verb: string;
  readonly transform: Transform;
}

export async function applyFileChange(change: FileChange, context: ToolContext): Promise<ToolResult> {
  const { root, absolute, relative, verb } = change;
  const first = await current(root, absolute);
  if ("error" in first) return errorResult(`${verb} ${relative} failed`, first.error);
  const planned = change.transform(first.text);
  if ("error" in planned) return errorResult(`${verb} ${relative} failed`, planned.error);
  if (planned.content === first.text) {
    return {
      content: `${relative} already has this content; nothing was written.`,
      isError: false,
      summary: `${verb} ${relative} (no change)`,
    };
  }

  const before = await runEditHooks("before-edit", relative, context);
  if (before.failed) {
    return errorResult(
      `${verb} ${relative} blocked by a hook`,
      `A before-edit hook failed, so ${relative} was not changed.\n\n${before.report}`,
    );
  }
  // A before-edit hook may have changed the file; the edit applies to what is there now.
  const base = before.report === "" ? first : await current(root, absolute);
  if ("error" in base) return errorResult(`${verb} ${relative} failed`, base.error);
  const next = before.report === "" ? planned : change.transform(base.text);
  if ("error" in next) return errorResult(`${verb} ${relative} failed`, `${next.error}\n\n${before.report}`);

  try {
    await writeConfined(root, absolute, next.content);
  } catch (error) {
    return errorResult(
      `${verb} ${relative} failed`,
      `Could not write ${relative}: ${(error as Error).message}`,
    );
  }

  const after = await runEditHooks("after-edit", relative, context);
  let final = next.content;
  if (after.report !== "") {
    const reread = await current(root, absolute);
    if ("text" in reread && reread.text !== undefined) final = reread.text;
  }
  const diff = unifiedDiff(relative, base.text, final);
  const stat = formatDiffStat(diffStat(diff));
  const headline =
    base.text === undefined
      ? `Created ${relative} (new file, ${countLines(final)} lines).`
      : `${verb === "Edit" ? "Edited" : "Wrote"} ${relative} (${stat}).`;
  const changedByHooks =
    final !== next.content
      ? "\nThe after-edit hooks changed the file; the diff shows the final content."
      : "";
  const reports = [before.report, after.report].filter((report) => report !== "").join("\n\n");
  return {
    content: `${headline}${changedByHooks}\n${shownDiff(diff)}${reports === "" ? "" : `\n\n${reports}`}`,
    isError: false,
    summary: `${verb} ${relative} (${base.text === undefined ? "new file" : stat})`,
    diff,
    filesWritten: [relative],
  };
}

async function current(
  root: string,
  absolute: string,
): Promise<{ readonly text: string | undefined } | { readonly error: string }> {
  let read;
  try {
    read = await readTextFile(root, absolute);
  } catch (error) {
    if (error instanceof ConfinementError) return { error: error.message };
    throw error;
  }
  switch (read.kind) {
    case "text":
      return { text: read.text };
    case "missing":
      return { text: undefined };
    case "directory":
      return { error: "That path is a directory, not a file." };
    case "binary":
      return {
        error: `That file is binary (${read.size} bytes); only text files can be edited or overwritten.`,
      };
  }
}

function countLines(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
