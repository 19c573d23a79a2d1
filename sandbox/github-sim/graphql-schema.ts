import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { buildSchema } from "graphql";
import type { GraphQLSchema } from "graphql";

let cached: { schema: GraphQLSchema; loadMs: number } | undefined;

// GitHub's public schema (1.2 MB of SDL) is built once per process, on first use.
export function githubGraphqlSchema(): { schema: GraphQLSchema; loadMs: number } {
  if (cached) return cached;
  const started = performance.now();
  const packageEntry = createRequire(import.meta.url).resolve("@octokit/graphql-schema");
  const sdl = readFileSync(join(dirname(packageEntry), "schema.graphql"), "utf8");
  const schema = buildSchema(sdl, { assumeValidSDL: true });
  cached = { schema, loadMs: performance.now() - started };
  return cached;
}
