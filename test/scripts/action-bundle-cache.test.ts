/** The Action bundle is built once per version of what it is built from, and again when any of it changes. */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBundleCache } from "../../scripts/action-bundle-cache.ts";

let root: string;
let builds: number;
/** What the stand-in build reads, relative to the root. */
let graph: string[];

/** A build that concatenates the files of the import graph into the bundle, as esbuild would read them. */
async function build(outfile: string): Promise<string[]> {
  builds += 1;
  const texts = await Promise.all(graph.map((file) => readFile(join(root, file), "utf8")));
  await writeFile(outfile, texts.join("\n"));
  return [...graph];
}

/** Writes a file dated an hour ago, as a checkout made before the build would be. */
async function writeOld(file: string, text: string): Promise<void> {
  await writeFile(join(root, file), text);
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await utimes(join(root, file), anHourAgo, anHourAgo);
}

function cache() {
  return createBundleCache({ root, dir: join(root, "node_modules", ".cache", "bundles"), build });
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "locus-bundle-cache-"));
  await mkdir(join(root, "scripts"));
  await mkdir(join(root, "lib"));
  for (const [file, text] of [
    ["scripts/build.ts", "// build"],
    ["tsconfig.json", "{}"],
    ["package.json", "{}"],
    ["action.ts", 'import "./lib/a.ts";'],
    ["lib/a.ts", "export const a = 1;"],
    ["lib/b.ts", "export const b = 2;"],
  ] as const) {
    await writeOld(file, text);
  }
  graph = ["action.ts", "lib/a.ts"];
  builds = 0;
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the Action bundle cache", () => {
  it("builds once and hands the same bundle to every later caller, even from a new process's cache", async () => {
    const first = await cache().bundle();
    expect(await readFile(first, "utf8")).toContain("export const a = 1;");
    expect(await cache().bundle()).toBe(first);
    expect(builds).toBe(1);
  });

  it("builds again when a source it read changes, and not when another file does", async () => {
    const first = await cache().bundle();
    await writeOld("lib/b.ts", "export const b = 3;");
    expect(await cache().bundle()).toBe(first);
    await writeOld("lib/a.ts", "export const a = 42;");
    const second = await cache().bundle();
    expect(second).not.toBe(first);
    expect(await readFile(second, "utf8")).toContain("export const a = 42;");
    expect(builds).toBe(2);
  });

  it("builds again when an import joins the graph, since the importing file changed", async () => {
    await cache().bundle();
    await writeOld("action.ts", 'import "./lib/a.ts"; import "./lib/b.ts";');
    graph = ["action.ts", "lib/a.ts", "lib/b.ts"];
    const next = await cache().bundle();
    expect(await readFile(next, "utf8")).toContain("export const b = 2;");
    expect(builds).toBe(2);
  });

  it("builds again when the build script or a file it read is gone or changed", async () => {
    await cache().bundle();
    await writeOld("scripts/build.ts", "// build, minified differently");
    await cache().bundle();
    expect(builds).toBe(2);
    await rm(join(root, "lib/a.ts"));
    graph = ["action.ts"];
    await cache().bundle();
    expect(builds).toBe(3);
  });

  it("builds a second time when a source was edited while the first build read it", async () => {
    // Dated now: as if written during the build, which may have read it before or after.
    await writeFile(join(root, "lib/a.ts"), "export const a = 7;");
    const path = await cache().bundle();
    expect(builds).toBe(2);
    expect(await readFile(path, "utf8")).toContain("export const a = 7;");
  });
});
