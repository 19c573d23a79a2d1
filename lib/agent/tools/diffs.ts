/** Unified diffs of edits: the model checks its change, event cards and PR logs show it. */
import { createTwoFilesPatch } from "diff";

/** Diff lines shown to the model in a tool result; the full diff still goes in `ToolResult.diff`. */
const SHOWN_DIFF_LINES = 300;

/** `git diff`-style unified diff; `before` undefined means a new file. */
export function unifiedDiff(relative: string, before: string | undefined, after: string): string {
  const patch = createTwoFilesPatch(
    before === undefined ? "/dev/null" : `a/${relative}`,
    `b/${relative}`,
    before ?? "",
    after,
    undefined,
    undefined,
    { context: 3, stripTrailingCr: true },
  );
  // jsdiff starts with an `Index:`/`===` banner that git's format does not have.
  return patch.replace(/^(?:Index: .*\n)?=+\n/, "");
}

export interface DiffStat {
  readonly added: number;
  readonly removed: number;
}

export function diffStat(diff: string): DiffStat {
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) added += 1;
    else if (line.startsWith("-")) removed += 1;
  }
  return { added, removed };
}

export function formatDiffStat({ added, removed }: DiffStat): string {
  return `+${added} −${removed}`;
}

/** The diff for the model's context, cut with a mark when long. */
export function shownDiff(diff: string): string {
  const lines = diff.replace(/\n$/, "").split("\n");
  if (lines.length <= SHOWN_DIFF_LINES) return lines.join("\n");
  const cut = lines.length - SHOWN_DIFF_LINES;
  return `${lines.slice(0, SHOWN_DIFF_LINES).join("\n")}\n[… ${cut} more diff lines not shown; read_file the file to see the result …]`;
}
