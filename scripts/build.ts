/**
 * Bundles the Action into one self-contained ESM file, `dist/action.js`, as
 * `action.yml` runs it with `node24`: a runner has no node_modules of ours.
 * Tests call `buildAction` with an outfile of their own.
 *
 * What keeps start-up short (the bundle is parsed and run before the first
 * GitHub call): `@actions/http-client` is left out, since `@actions/core`
 * imports it (and undici with it, a fifth of the bundle) only to fetch OIDC
 * tokens, which Locus requests with Node's fetch instead
 * (lib/token-exchange/id-token.ts); whitespace and syntax are minified but
 * names are kept, so stack traces still read; and the agent runners load on
 * first use (action/create-agent-runner.ts).
 */
import { build, type Plugin } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Stands in for `@actions/http-client` and fails with a clear message if anything calls it. */
const withoutHttpClient: Plugin = {
  name: "without-actions-http-client",
  setup(builder) {
    builder.onResolve({ filter: /^@actions\/http-client(\/.*)?$/ }, (args) => ({
      path: args.path,
      namespace: "without-http-client",
    }));
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

export async function buildAction(outfile = "dist/action.js"): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: ["action/index.ts"],
    outfile,
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    plugins: [withoutHttpClient],
    minifyWhitespace: true,
    minifySyntax: true,
    // Some bundled CommonJS dependencies call require() for Node built-ins.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    legalComments: "linked",
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildAction();
