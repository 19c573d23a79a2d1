/** Reading and writing the worktree's text files the way an editor would. */
import type { FileHandle } from "node:fs/promises";
import { openConfined } from "./confined-files.ts";

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

export type FileRead =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "binary"; readonly size: number }
  | { readonly kind: "directory" }
  | { readonly kind: "missing" };

/** Reads a worktree file (`absolute`, already resolved inside `root`) without following a symlink swapped in since. */
export async function readTextFile(root: string, absolute: string): Promise<FileRead> {
  const handle = await openConfined(root, absolute);
  if (handle === undefined) return { kind: "missing" };
  try {
    if ((await handle.stat()).isDirectory()) return { kind: "directory" };
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) return { kind: "binary", size: bytes.length };
    return { kind: "text", text: bytes.toString("utf8") };
  } finally {
    await handle.close();
  }
}

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads only the first bytes, so a huge file can be refused without loading it. */
export async function sniffBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
  return looksBinary(buffer.subarray(0, bytesRead));
}

export type LineEnding = "\n" | "\r\n";

/** The file's dominant line ending, so an edit does not turn a CRLF file into a mixed one. */
export function lineEnding(text: string): LineEnding {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = text.match(/\n/g)?.length ?? 0;
  return crlf > lf - crlf ? "\r\n" : "\n";
}

/** The model writes `\n`; text going into a file takes that file's line ending. */
export function withLineEnding(text: string, ending: LineEnding): string {
  return ending === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text.replace(/\r\n/g, "\n");
}

/** Keeps whether the file ended with a newline, whatever the new text does at its end. */
export function keepTrailingNewline(original: string, updated: string, ending: LineEnding): string {
  const had = original.endsWith("\n");
  const has = updated.endsWith("\n");
  if (had && !has && updated !== "") return updated + ending;
  if (!had && has && original !== "") return updated.replace(/\r?\n$/, "");
  return updated;
}
