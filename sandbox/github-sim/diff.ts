import type { DiffSide } from "./model.ts";

// Parses `git diff` output into per-file patches and the lines a review comment may anchor to.

export interface FilePatch {
  path: string;
  patch: string;
  additions: number;
  deletions: number;
  // "RIGHT:12" / "LEFT:7" → index of the line within `patch` (for the comment's diff_hunk).
  anchors: Map<string, number>;
}

function pathFromHeader(line: string): string {
  const match = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
  return match?.[2] ?? "";
}

export function parseDiff(diff: string): FilePatch[] {
  const files: FilePatch[] = [];
  let current: FilePatch | undefined;
  let patchLines: string[] = [];
  let oldLine = 0;
  let newLine = 0;
  const finish = (): void => {
    if (current) {
      current.patch = patchLines.join("\n");
      files.push(current);
    }
  };
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) {
      finish();
      current = { path: pathFromHeader(line), patch: "", additions: 0, deletions: 0, anchors: new Map() };
      patchLines = [];
      continue;
    }
    if (!current) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      patchLines.push(line);
      continue;
    }
    if (patchLines.length === 0) continue;
    if (line.startsWith("+")) {
      current.additions += 1;
      current.anchors.set(`RIGHT:${newLine}`, patchLines.length);
      newLine += 1;
    } else if (line.startsWith("-")) {
      current.deletions += 1;
      current.anchors.set(`LEFT:${oldLine}`, patchLines.length);
      oldLine += 1;
    } else if (line.startsWith(" ")) {
      current.anchors.set(`RIGHT:${newLine}`, patchLines.length);
      current.anchors.set(`LEFT:${oldLine}`, patchLines.length);
      oldLine += 1;
      newLine += 1;
    } else if (!line.startsWith("\\")) {
      continue;
    }
    patchLines.push(line);
  }
  finish();
  return files;
}

// GitHub's diff_hunk for a comment: from the enclosing hunk header down to the commented line.
export function diffHunkFor(
  file: FilePatch,
  side: DiffSide,
  line: number,
): { hunk: string; position: number } | null {
  const index = file.anchors.get(`${side}:${line}`);
  if (index === undefined) return null;
  const lines = file.patch.split("\n");
  let start = index;
  while (start > 0 && !lines[start]?.startsWith("@@")) start -= 1;
  return { hunk: lines.slice(start, index + 1).join("\n"), position: index };
}
