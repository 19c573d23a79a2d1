/**
 * Every project shares a worker's module cache between files (`isolate: false`
 * in vitest.config.ts), which is safe only while test files replace no module
 * and change no process-wide state. This keeps it so.
 */
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;

/** Process-wide changes that would leak into the next file of a shared worker. */
const LEAKS = [
  /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]/,
  /\bdelete process\.env\b/,
  /\bprocess\.chdir\(/,
];

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".test.ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe("test files that share a worker", () => {
  it("neither mock modules nor change process-wide state", async () => {
    const shared = await testFiles("test");
    expect(shared.length).toBeGreaterThan(150);
    const leaking: string[] = [];
    for (const file of shared) {
      const text = await readFile(join(root, file), "utf8");
      const leak = LEAKS.find((pattern) => pattern.test(text));
      if (leak) leaking.push(`${file}: ${leak.source}`);
    }
    expect(leaking).toEqual([]);
  });

  it("would catch a file that stubs the environment or mocks a module", () => {
    // Put together here so that this file's own text stays clean.
    const leaks = (code: string[]) => LEAKS.some((pattern) => pattern.test(code.join("")));
    expect(leaks(["process.env", '["GITHUB_TOKEN"] = "x";'])).toBe(true);
    expect(leaks(["vi.", "mock('../x.ts')"])).toBe(true);
    expect(leaks(["if (process.env", '["CI"] === "true")'])).toBe(false);
  });
});
