/**
 * `npm run demo`: Locus end to end on this machine (sandbox/demo-run.ts).
 *
 * This entry only switches Node's on-disk compile cache on before the demo's
 * modules load: they are TypeScript that Node strips and compiles on every
 * start, about a second of CPU, which the cache spares from the second run on.
 * https://nodejs.org/api/module.html#moduleenablecompilecachecachedir
 */
import { enableCompileCache } from "node:module";
import { NODE_COMPILE_CACHE_ENV } from "./world/node-compile-cache.ts";

enableCompileCache(NODE_COMPILE_CACHE_ENV.NODE_COMPILE_CACHE);
await import("./demo-run.ts");
