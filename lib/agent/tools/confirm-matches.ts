/**
 * ripgrep and the fallback open files by path, so a directory swapped for a
 * symlink in the middle of a search can make them read a file outside the
 * worktree. Every match is therefore read again through a confined descriptor
 * (`openConfined`) and kept only when the worktree's own file has that text on
 * that line: whatever was read outside never reaches the model.
 */
import path from "node:path";
import { ConfinementError, openConfined } from "./confined-files.ts";
import type { SearchMatch } from "./search-fallback.ts";

async function confinedLines(root: string, relative: string): Promise<string[] | undefined> {
  let handle;
  try {
    handle = await openConfined(root, path.join(root, relative));
  } catch (error) {
    if (error instanceof ConfinementError) return undefined;
    throw error;
  }
  if (!handle) return undefined;
  try {
    return (await handle.readFile("utf8")).split("\n").map((line) => line.replace(/\r$/, ""));
  } finally {
    await handle.close();
  }
}

export async function confirmMatches(root: string, matches: readonly SearchMatch[]): Promise<SearchMatch[]> {
  const linesOf = new Map<string, Promise<string[] | undefined>>();
  const confirmed: SearchMatch[] = [];
  for (const match of matches) {
    let lines = linesOf.get(match.path);
    if (!lines) {
      lines = confinedLines(root, match.path);
      linesOf.set(match.path, lines);
    }
    if ((await lines)?.[match.line - 1] === match.text.replace(/\r$/, "")) confirmed.push(match);
  }
  return confirmed;
}
