/** Reading and writing the worktree's text files the way an editor would. */
import { randomUUID } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

export type FileRead =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "binary"; readonly size: number }
  | { readonly kind: "directory" }
  | { readonly kind: "missing" };

export async function readTextFile(absolute: string): Promise<FileRead> {
  let info;
  try {
    info = await stat(absolute);
  } catch {
    return { kind: "missing" };
  }
  if (info.isDirectory()) return { kind: "directory" };
  const bytes = await readFile(absolute);
  if (looksBinary(bytes)) return { kind: "binary", size: bytes.length };
  return { kind: "text", text: bytes.toString("utf8") };
}

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads only the first bytes, so a huge file can be refused without loading it. */
export async function sniffBinary(absolute: string): Promise<boolean> {
  const handle = await open(absolute, "r");
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Writes through a temporary file in the same directory and a rename, so a reader (or a crash)
 * never sees half a file; the existing file's permissions are kept.
 */
export async function writeFileAtomic(absolute: string, content: string): Promise<void> {
  const directory = path.dirname(absolute);
  await mkdir(directory, { recursive: true });
  const mode = await stat(absolute).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const temporary = path.join(directory, `.${path.basename(absolute)}.locus-${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, content, { flag: "wx" });
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, absolute);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
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
