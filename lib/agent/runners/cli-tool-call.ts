/** Naming and diffs for the tool calls the CLIs report, in the shape of Locus's own tool cards. */
import { worktreePath } from "./subprocess-runner.ts";

type Input = Readonly<Record<string, unknown>>;

function text(input: Input, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" ? value : undefined;
}

/** What a Claude Code tool acted on: a worktree-relative path, a command, a pattern, a URL. */
export function claudeToolTarget(input: Input, cwd: string): string {
  const file = text(input, "file_path") ?? text(input, "notebook_path");
  if (file !== undefined) return worktreePath(cwd, file);
  const other = text(input, "command") ?? text(input, "pattern") ?? text(input, "url");
  if (other !== undefined) return other;
  const dir = text(input, "path");
  return dir === undefined ? "" : worktreePath(cwd, dir) || ".";
}

/** Claude Code's file-writing tools and the path they write. */
export function claudeWrittenPath(name: string, input: Input, cwd: string): string | undefined {
  if (!["Edit", "MultiEdit", "Write", "NotebookEdit"].includes(name)) return undefined;
  const path = text(input, "file_path") ?? text(input, "notebook_path");
  return path === undefined ? undefined : worktreePath(cwd, path);
}

function hunk(before: string, after: string): string {
  const lines = (value: string, sign: string) =>
    value === ""
      ? []
      : value
          .replace(/\n$/, "")
          .split("\n")
          .map((line) => `${sign}${line}`);
  return ["@@", ...lines(before, "-"), ...lines(after, "+")].join("\n");
}

/** A unified-style diff of an Edit, MultiEdit or Write call, from its input (the CLI applies it). */
export function claudeEditDiff(name: string, input: Input, cwd: string): string | undefined {
  const path = claudeWrittenPath(name, input, cwd);
  if (path === undefined) return undefined;
  const header = `--- a/${path}\n+++ b/${path}\n`;
  if (name === "Write") return `${header}${hunk("", text(input, "content") ?? "")}\n`;
  if (name === "Edit")
    return `${header}${hunk(text(input, "old_string") ?? "", text(input, "new_string") ?? "")}\n`;
  if (name === "MultiEdit" && Array.isArray(input["edits"])) {
    const hunks = (input["edits"] as Input[]).map((edit) =>
      hunk(text(edit, "old_string") ?? "", text(edit, "new_string") ?? ""),
    );
    return `${header}${hunks.join("\n")}\n`;
  }
  return undefined;
}
