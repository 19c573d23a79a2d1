/**
 * Writes `schema/locus.schema.json`, the JSON Schema of `.github/locus.yml`
 * generated from the zod schema the app and the Action validate it with, so
 * editors complete and check the file (a `# yaml-language-server: $schema=…`
 * line at its top). `npm run schema` regenerates it; a test fails when the
 * committed file differs from what the zod schema gives.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { configJsonSchema } from "../lib/config/index.ts";

export const SCHEMA_PATH = fileURLToPath(new URL("../schema/locus.schema.json", import.meta.url));

/** Where the README's modeline points: the file on the default branch, served raw. */
export const SCHEMA_URL = "https://raw.githubusercontent.com/locus-dev/locus/main/schema/locus.schema.json";

/** The file's text, formatted as the repository's Prettier check expects. */
export async function renderConfigSchema(): Promise<string> {
  const schema = { ...configJsonSchema(), $id: SCHEMA_URL, title: "Locus configuration" };
  const options = (await resolveConfig(SCHEMA_PATH)) ?? {};
  return format(JSON.stringify(schema), { ...options, filepath: SCHEMA_PATH });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(SCHEMA_PATH, await renderConfigSchema());
}
