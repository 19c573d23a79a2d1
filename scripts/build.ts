/**
 * Bundles the Action into self-contained ESM, `dist/action.js` and the chunks
 * it loads on demand (`dist/chunks/`), as `action.yml` runs it with `node24`:
 * a runner has no node_modules of ours. Tests call `buildAction` with an
 * outfile of their own; its chunks go beside it.
 *
 * What keeps start-up short (the entry is parsed and run before the first
 * GitHub call): every dynamic `import()` is a chunk of its own, read only when
 * a run needs it (an agent runner, a cloud model host, the session record's
 * artifact client); `@actions/core` gets a stand-in for `@actions/http-client`,
 * which it imports (with undici, a fifth of the code) only to fetch OIDC
 * tokens, which Locus requests with Node's fetch instead
 * (lib/token-exchange/id-token.ts), while the artifact client, which uploads
 * through it, gets the real one in its chunk; whitespace and syntax are
 * minified but names are kept, so stack traces still read.
 */
import { build, type Plugin } from "esbuild";
import { rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** What imports `@actions/http-client` only for what Locus does another way. */
const CORE = /[\\/]node_modules[\\/]@actions[\\/]core[\\/]/;

/** Stands in for `@actions/core`'s `@actions/http-client` and fails with a clear message if anything calls it. */
const withoutHttpClient: Plugin = {
  name: "without-actions-http-client",
  setup(builder) {
    builder.onResolve({ filter: /^@actions\/http-client(\/.*)?$/ }, (args) =>
      CORE.test(args.importer) ? { path: args.path, namespace: "without-http-client" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "without-http-client" }, () => ({
      loader: "js",
      contents: `
        const missing = () => {
          throw new Error("@actions/http-client is not bundled into the Locus Action (OIDC tokens come from lib/token-exchange/id-token.ts); see scripts/build.ts");
        };
        export class HttpClient { constructor() { missing(); } }
        export class BearerCredentialHandler { constructor() { missing(); } }
      `,
    }));
  },
};

/** Builds the Action; answers the files the build read (esbuild's metafile inputs, relative to the repository). */
export async function buildAction(outfile = "dist/action.js"): Promise<string[]> {
  const outdir = dirname(outfile);
  // Chunk names carry a hash of their content: an earlier build's would stay behind.
  await rm(join(outdir, "chunks"), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { [basename(outfile, ".js")]: "action/index.ts" },
    outdir,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    plugins: [withoutHttpClient],
    minifyWhitespace: true,
    minifySyntax: true,
    // Some bundled CommonJS dependencies call require() for Node built-ins. The import is renamed:
    // bundled ES modules (the artifact client's) import `createRequire` themselves, at top level.
    banner: {
      js: "import { createRequire as locusCreateRequire } from 'node:module'; const require = locusCreateRequire(import.meta.url);",
    },
    legalComments: "linked",
    logLevel: "warning",
    metafile: true,
  });
  // The stand-in above is a module of its own namespace, not a file.
  return Object.keys(result.metafile.inputs).filter((input) => !input.includes(":"));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildAction();
