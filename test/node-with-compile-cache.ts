/**
 * `node` with its on-disk compile cache on, for the fixtures, adapters and CLIs a unit test starts
 * again and again (the scripted ACP agent starts once per test): the compiled code of one start
 * is reused by the next, a third of a TypeScript fixture's start-up and two thirds of the 11 MB
 * Claude Code CLI's. Node checks each source's hash, so an edited fixture never runs stale code.
 *
 * A preloaded module switches the cache on, not `NODE_COMPILE_CACHE`, because the runners give an
 * agent an environment of their own and the tests check what is in it. The preload also sets the
 * variable in the started process, so the processes it starts in turn (the Claude Code CLI an
 * adapter runs) use the cache as well.
 */
import { NODE_COMPILE_CACHE_ENV } from "../sandbox/world/node-compile-cache.ts";

const { NODE_COMPILE_CACHE: directory } = NODE_COMPILE_CACHE_ENV;
const PRELOAD = [
  `import { enableCompileCache } from "node:module";`,
  `enableCompileCache(${JSON.stringify(directory)});`,
  `process.env.NODE_COMPILE_CACHE ??= ${JSON.stringify(directory)};`,
].join("\n");

/** The command line that starts `node` with the compile cache on; the script and its arguments follow. */
export const NODE_WITH_COMPILE_CACHE: readonly string[] = [
  process.execPath,
  "--import",
  `data:text/javascript,${encodeURIComponent(PRELOAD)}`,
];
