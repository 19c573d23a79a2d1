/**
 * Bundles the Action into one self-contained ESM file, `dist/action.js`, as
 * `action.yml` runs it with `node24`: a runner has no node_modules of ours.
 * Tests call `buildAction` with an outfile of their own.
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export async function buildAction(outfile = "dist/action.js"): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: ["action/index.ts"],
    outfile,
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    // Some bundled CommonJS dependencies call require() for Node built-ins.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    legalComments: "linked",
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildAction();
