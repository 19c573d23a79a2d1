import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSchema } from "graphql";
import type { GraphQLSchema } from "graphql";

let cached: { schema: GraphQLSchema; loadMs: number } | undefined;

// GitHub's public schema (1.2 MB of SDL) is built once per process, on first use.
export function githubGraphqlSchema(): { schema: GraphQLSchema; loadMs: number } {
  if (cached) return cached;
  const started = performance.now();
  // The package exports only an ESM entry (which also parses a large JSON copy eagerly), so read the SDL beside it.
  const packageEntry = fileURLToPath(import.meta.resolve("@octokit/graphql-schema"));
  const sdl = readFileSync(join(dirname(packageEntry), "schema.graphql"), "utf8");
  const schema = buildSchema(sdl, { assumeValidSDL: true });
  cached = { schema, loadMs: performance.now() - started };
  return cached;
}
