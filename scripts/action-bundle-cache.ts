/**
 * The Action bundle the demo and the end-to-end tests run, built once per version of what it is
 * built from. esbuild takes about two seconds of both cores over some 2,800 files, and a developer
 * runs the demo or the tests many times between edits.
 *
 * The bundle is kept in `node_modules/.cache/locus-action/<key>/`. The key hashes esbuild's version,
 * the build script, `tsconfig.json`, `package.json` and the content of every file the last build
 * read (its metafile's inputs, listed in `inputs.json`). An edited source changes the key, and so
 * does an import added or removed, since the importing file changes. A deleted input makes the key
 * unreadable. In each case the bundle is built again. It lives inside the project, not in the
 * shared temp directory, so no other user of the machine can plant a bundle there.
 * `npm run build` (dist/) never uses this cache.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { version as esbuildVersion } from "esbuild";
import { buildAction } from "./build.ts";

/** Where a cache keeps its bundles and what builds one (the Action's build; a stand-in in tests). */
export interface BundleCacheOptions {
  /** The repository the inputs are relative to. */
  readonly root: string;
  readonly dir: string;
  /** Builds the bundle at `outfile` and answers the files it read, relative to `root`. */
  readonly build: (outfile: string) => Promise<string[]>;
  readonly now?: () => number;
}

/** Bundles of earlier sources kept besides the newest: another process may still be running one. */
const KEPT = 3;

export function createBundleCache(options: BundleCacheOptions): { bundle(): Promise<string> } {
  const { root, dir: cache } = options;
  const listingPath = join(cache, "inputs.json");
  const now = options.now ?? Date.now;

  /**
   * The key of these inputs as they are now, or undefined when one can no longer be read. Read one
   * after another without yielding: for thousands of small files that is several times faster
   * than asynchronous reads, and nothing else is waiting.
   */
  function keyOf(inputs: readonly string[]): string | undefined {
    const hash = createHash("sha256").update(`esbuild ${esbuildVersion}\0`);
    try {
      for (const file of ["scripts/build.ts", "tsconfig.json", "package.json", ...inputs]) {
        hash
          .update(`${file}\0`)
          .update(readFileSync(join(root, file)))
          .update("\0");
      }
    } catch {
      return undefined;
    }
    return hash.digest("hex").slice(0, 20);
  }

  async function lastInputs(): Promise<string[] | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(listingPath, "utf8"));
      return Array.isArray(parsed) && parsed.every((input) => typeof input === "string") ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether a file was changed after `since` (ms): the build may have read it before or after. */
  async function changedSince(files: readonly string[], since: number): Promise<boolean> {
    const times = await Promise.all(files.map((file) => stat(join(root, file)).then((info) => info.mtimeMs)));
    return times.some((at) => at >= since);
  }

  /** Removes all but the newest bundles. */
  async function prune(): Promise<void> {
    const entries = await readdir(cache, { withFileTypes: true });
    const dirs = await Promise.all(
      entries
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith("building-"))
        .map(async (entry) => ({
          path: join(cache, entry.name),
          at: (await stat(join(cache, entry.name))).mtimeMs,
        })),
    );
    const old = dirs.sort((a, b) => b.at - a.at).slice(KEPT);
    await Promise.all(old.map((dir) => rm(dir.path, { recursive: true, force: true })));
  }

  async function bundle(attempt = 1): Promise<string> {
    const inputs = await lastInputs();
    const key = inputs && keyOf(inputs);
    if (key && (await exists(join(cache, key, "action.js")))) return join(cache, key, "action.js");

    await mkdir(cache, { recursive: true });
    const building = await mkdtemp(join(cache, "building-"));
    try {
      // Whole seconds: some file systems keep coarse modification times.
      const startedAt = Math.floor(now() / 1000) * 1000;
      const read = await options.build(join(building, "action.js"));
      const built = keyOf(read);
      if (!built) throw new Error("a file the Action's build read is gone: run again");
      // Edited while the build read it: the bundle may hold the old text under the new text's key.
      if (attempt === 1 && (await changedSince(read, startedAt))) return await bundle(2);
      const dir = join(cache, built);
      // Another process may have built the same sources meanwhile: its bundle is as good.
      if (!(await exists(dir))) await rename(building, dir);
      const listing = join(cache, `inputs-${process.pid}.json`);
      await writeFile(listing, JSON.stringify(read));
      await rename(listing, listingPath);
      await prune();
      return join(dir, "action.js");
    } finally {
      await rm(building, { recursive: true, force: true });
    }
  }

  return { bundle: () => bundle() };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const root = fileURLToPath(new URL("..", import.meta.url));
const actionBundles = createBundleCache({
  root,
  dir: join(root, "node_modules", ".cache", "locus-action"),
  build: buildAction,
});

/** The path of a bundle built from the sources as they are now, built first if there is none. */
export function cachedActionBundle(): Promise<string> {
  return actionBundles.bundle();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await cachedActionBundle());
}
