/**
 * Bundles the Action into one self-contained ESM file, `dist/action.js`, as
 * `action.yml` runs it with `node24`: a runner has no node_modules of ours.
 * Tests call `buildAction` with an outfile of their own.
 *
 * What keeps start-up short (the bundle is parsed and run before the first
 * GitHub call): whitespace and syntax are minified but names are kept, so
 * stack traces still read; the agent runners load on first use
 * (action/create-agent-runner.ts); and so does `@actions/artifact` with its
 * HTTP and Azure clients, which only the session record's upload needs, after
 * the agent has ended (action/session-record.ts). `@actions/http-client` is
 * bundled whole: the artifact client talks to the results service through it.
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
    minifyWhitespace: true,
    minifySyntax: true,
    // Some bundled CommonJS dependencies call require() for Node built-ins. The import is renamed:
    // bundled ES modules (the artifact client's) import `createRequire` themselves, at top level.
    banner: {
      js: "import { createRequire as locusCreateRequire } from 'node:module'; const require = locusCreateRequire(import.meta.url);",
    },
    legalComments: "linked",
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildAction();
