import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// Reads the HTTP exchanges `@octokit/fixtures` recorded against the real api.github.com and compares a
// simulator's answer with them: status, the headers Locus reads, and the body's shape (field names and
// JSON types, recursively; values are ignored because the recordings normalise ids, dates and SHAs).

export interface RecordedExchange {
  method: string;
  path: string;
  body: unknown;
  status: number;
  response: unknown;
  reqheaders: Record<string, string | number>;
  headers: Record<string, string | number>;
}

function scenariosDir(): string {
  const entry = createRequire(import.meta.url).resolve("@octokit/fixtures/package.json");
  return join(dirname(entry), "scenarios", "api.github.com");
}

export function scenarioNames(): string[] {
  return readdirSync(scenariosDir(), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function loadScenario(name: string): RecordedExchange[] {
  const file = join(scenariosDir(), name, "normalized-fixture.json");
  return JSON.parse(readFileSync(file, "utf8")) as RecordedExchange[];
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

// Every place where `simulated` is shaped differently from `recorded`: a field only one side has, or a
// field whose JSON type differs. Arrays are compared item by item (reported once for all items as `[]`); a
// length difference is reported too, since it means the replay did not reproduce the recorded state.
export function shapeDifferences(recorded: unknown, simulated: unknown, at = "body"): string[] {
  const want = jsonType(recorded);
  const got = jsonType(simulated);
  if (want !== got) return [`${at}: ${want} on GitHub, ${got} in the simulator`];
  if (want === "array") {
    const left = recorded as unknown[];
    const right = simulated as unknown[];
    const found =
      left.length === right.length
        ? []
        : [`${at}: ${left.length} items on GitHub, ${right.length} in the simulator`];
    for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
      found.push(...shapeDifferences(left[index], right[index], `${at}[]`));
    }
    return [...new Set(found)];
  }
  if (want !== "object") return [];
  const left = recorded as Record<string, unknown>;
  const right = simulated as Record<string, unknown>;
  const found: string[] = [];
  for (const key of Object.keys(left)) {
    if (!(key in right)) found.push(`${at}.${key}: missing in the simulator`);
    else found.push(...shapeDifferences(left[key], right[key], `${at}.${key}`));
  }
  for (const key of Object.keys(right)) {
    if (!(key in left)) found.push(`${at}.${key}: not sent by GitHub`);
  }
  return found;
}

// The response headers Locus reads: conditional requests, pagination, rate limits and back-off.
export const READ_HEADERS = [
  "etag",
  "link",
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-ratelimit-used",
  "x-ratelimit-resource",
] as const;

const integerHeaders = new Set([
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-ratelimit-used",
]);

interface LinkTarget {
  path: string;
  query: string;
}

function parseLink(value: string): Map<string, LinkTarget> {
  const rels = new Map<string, LinkTarget>();
  for (const part of value.split(",")) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (!match) continue;
    const url = new URL(match[1] ?? "");
    const query = new URLSearchParams(url.searchParams);
    query.sort();
    rels.set(match[2] ?? "", { path: url.pathname.replace(/^\/api\/v3/, ""), query: query.toString() });
  }
  return rels;
}

// A header both sides send must agree in form: integers stay integers, the rate-limit resource is the
// same bucket, and a Link header names the same relations with the same page parameters.
export function headerDifferences(recorded: Record<string, string | number>, simulated: Headers): string[] {
  const found: string[] = [];
  for (const name of READ_HEADERS) {
    const want = recorded[name];
    const got = simulated.get(name);
    if (want === undefined && got === null) continue;
    if (want === undefined) {
      found.push(`header ${name}: not sent by GitHub`);
      continue;
    }
    if (got === null) {
      found.push(`header ${name}: missing in the simulator`);
      continue;
    }
    if (integerHeaders.has(name) && !/^\d+$/.test(got))
      found.push(`header ${name}: "${got}" is not an integer`);
    if (name === "x-ratelimit-resource" && got !== String(want))
      found.push(`header ${name}: ${String(want)} on GitHub, ${got} in the simulator`);
    if (name === "link") found.push(...linkDifferences(String(want), got));
  }
  return found;
}

function linkDifferences(want: string, got: string): string[] {
  const recordedRels = parseLink(want);
  const simulatedRels = parseLink(got);
  const found: string[] = [];
  const order = (rels: Map<string, LinkTarget>): string => [...rels.keys()].join(",");
  if (order(recordedRels) !== order(simulatedRels))
    found.push(
      `header link: rels ${order(recordedRels)} on GitHub, ${order(simulatedRels)} in the simulator`,
    );
  for (const [rel, target] of recordedRels) {
    const other = simulatedRels.get(rel);
    if (!other) continue;
    if (other.query !== target.query)
      found.push(`header link: rel ${rel} asks ${target.query} on GitHub, ${other.query} in the simulator`);
    if (other.path !== target.path)
      found.push(
        `header link: rel ${rel} points at ${target.path} on GitHub, ${other.path} in the simulator`,
      );
  }
  return found;
}
