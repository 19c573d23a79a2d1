/**
 * Writes `schema/github-permissions/<version>.json` from a local checkout of
 * github/docs: GitHub's `server-to-server-permissions.json` for that version,
 * trimmed to the routes the GitHub simulator serves and the fields it reads.
 * Reads only local files, so it runs anywhere; see
 * schema/github-permissions/README.md for where the vendored files came from.
 *
 *   node scripts/github-permissions.ts /path/to/github/docs fpt-2022-11-28 [more versions]
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { routes } from "../sandbox/github-sim/routes.ts";

interface SourceEntry {
  slug: string;
  verb: string;
  requestPath: string;
  access: string;
  "server-to-server": boolean;
  "additional-permissions": boolean;
}

type Data<Entry> = Record<string, { title: string; permissions: Entry[] }>;
type TrimmedEntry = Omit<SourceEntry, "server-to-server">;

/** `verb /template` of every route the simulator serves, as GitHub's data names it. */
export function servedRoutes(): Set<string> {
  return new Set(
    routes.map(({ route }) => {
      const template = route.template.replace(/^(\/repos\/\{owner\}\/\{repo\}\/contents)\/?$/, "$1/{path}");
      return `${route.method.toLowerCase()} ${template}`;
    }),
  );
}

/** GitHub's data, kept to the installation-token entries for `served` routes. */
export function trimPermissions(source: Data<SourceEntry>, served: Set<string>): Data<TrimmedEntry> {
  const trimmed: Data<TrimmedEntry> = {};
  for (const [name, { title, permissions }] of Object.entries(source)) {
    const kept = permissions
      .filter((entry) => entry["server-to-server"] && served.has(`${entry.verb} ${entry.requestPath}`))
      .map((entry) => ({
        slug: entry.slug,
        verb: entry.verb,
        requestPath: entry.requestPath,
        access: entry.access,
        "additional-permissions": entry["additional-permissions"],
      }));
    if (kept.length > 0) trimmed[name] = { title, permissions: kept };
  }
  return trimmed;
}

/** The file's text, formatted as the repository's Prettier check expects. */
export async function renderPermissions(data: Data<TrimmedEntry>, target: string): Promise<string> {
  const options = (await resolveConfig(target)) ?? {};
  return format(JSON.stringify(data), { ...options, filepath: target });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [docs, ...versions] = process.argv.slice(2);
  if (!docs || versions.length === 0) {
    console.error("usage: node scripts/github-permissions.ts <github/docs checkout> <version>...");
    process.exit(2);
  }
  const served = servedRoutes();
  for (const version of versions) {
    const source = join(docs, "src", "github-apps", "data", version, "server-to-server-permissions.json");
    const data = trimPermissions(JSON.parse(await readFile(source, "utf8")) as Data<SourceEntry>, served);
    const target = fileURLToPath(new URL(`../schema/github-permissions/${version}.json`, import.meta.url));
    await writeFile(target, await renderPermissions(data, target));
    console.log(`${target}: ${Object.keys(data).length} permissions`);
  }
}
