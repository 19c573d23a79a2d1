/**
 * No file of lib/ grows past 300 lines: a file that long holds more than one
 * concept and should be split by concept (docs/architecture.md, "File size").
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/import-cycles.ts";

const LIMIT = 300;

/** Lines as `wc -l` counts them: a final newline ends the last line, it does not start another. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

async function libFiles(): Promise<string[]> {
  const entries = await readdir(join(ROOT, "lib"), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length).replace(/^\/+/, ""));
}

describe("file size in lib/", () => {
  it(`keeps every file at ${LIMIT} lines or fewer`, async () => {
    const files = await libFiles();
    expect(files.length).toBeGreaterThan(250);
    expect(files).toContain("lib/git/git-client.ts");
    const over: string[] = [];
    for (const file of files) {
      const lines = lineCount(await readFile(join(ROOT, file), "utf8"));
      if (lines > LIMIT) over.push(`${file}: ${lines} lines`);
    }
    expect(over).toEqual([]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\n")).toBe(1);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("\n\n")).toBe(2);
  });
});
