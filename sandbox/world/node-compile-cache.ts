/**
 * Node's on-disk compile cache for the bundled Action's processes. A test run
 * or the demo starts the 3 MB bundle hundreds of times; with the cache, each
 * start reuses the compiled code of the last instead of compiling it again
 * (a fifth of its start-up). Node checks the source's hash, so a rebuilt
 * bundle never runs stale code.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NODE_COMPILE_CACHE_ENV = { NODE_COMPILE_CACHE: join(tmpdir(), "locus-node-compile-cache") };
