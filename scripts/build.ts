/**
 * Bundles the Action into one self-contained ESM file, `dist/action.js`, as
 * `action.yml` runs it with `node24`: a runner has no node_modules of ours.
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ["action/index.ts"],
  outfile: "dist/action.js",
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
