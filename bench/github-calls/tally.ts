/** Calls of one unit of work, read off the simulator's request log (what GitHub would bill). */
import { QUERIES } from "../../lib/github/index.ts";
import type { RequestLogEntry } from "../../sandbox/github-sim/index.ts";

export interface Tally {
  readonly total: number;
  /**
   * The run's lookup of its bot's user id (GET /users/{bot}), for its commits' noreply address: made
   * once per run on the key fallback, never with the app's token exchange, which says the id.
   */
  readonly identity: number;
  readonly reads: number;
  readonly writes: number;
  /** Writes other than comment edits (PATCH …/comments/{id}): the content-creating ones. */
  readonly creating: number;
  /** GETs of a resource already read in the same unit of work (304s excluded). */
  readonly duplicateReads: number;
  readonly notModified: number;
  /** "GET /repos/o/r/issues/{n} ×2", for reading where the calls go. */
  readonly routes: readonly string[];
  /** Every call in the order made, "GET /repos/o/r/issues/{n} → 200", for the README's list of what remains. */
  readonly calls: readonly string[];
}

// The log names a GraphQL request by its operation; the gateway's documents say which are mutations.
const MUTATIONS = new Set(
  Object.values(QUERIES).flatMap((document) => /^\s*mutation\s+(\w+)/.exec(document)?.slice(1) ?? []),
);

function isRead(entry: RequestLogEntry): boolean {
  if (entry.operationName !== null || entry.path.endsWith("/graphql"))
    return entry.operationName === null || !MUTATIONS.has(entry.operationName);
  return entry.method === "GET" || entry.method === "HEAD";
}

/** Token mints are auth, not API work, and GitHub does not count them against the budget. */
function isApiCall(entry: RequestLogEntry): boolean {
  return !/\/app\/installations\/\d+\/access_tokens$/.test(entry.path);
}

export function tally(entries: readonly RequestLogEntry[]): Tally {
  const calls = entries.filter(isApiCall);
  const reads = calls.filter(isRead);
  const writes = calls.filter((e) => !isRead(e));
  const seen = new Map<string, number>();
  for (const e of reads) {
    if (e.status === 304 || e.path.endsWith("/graphql")) continue;
    seen.set(e.path, (seen.get(e.path) ?? 0) + 1);
  }
  return {
    total: calls.length,
    identity: calls.filter((e) => e.method === "GET" && e.path.startsWith("/users/")).length,
    reads: reads.length,
    writes: writes.length,
    creating: writes.filter((e) => !(e.method === "PATCH" && /\/issues\/comments\/\d+$/.test(e.path))).length,
    duplicateReads: [...seen.values()].reduce((sum, n) => sum + n - 1, 0),
    notModified: calls.filter((e) => e.status === 304).length,
    routes: routesOf(calls),
    calls: calls.map((e) => `${routeOf(e)} → ${e.status}`),
  };
}

/** The log entries `work` adds. */
export async function counted(log: readonly RequestLogEntry[], work: () => Promise<unknown>): Promise<Tally> {
  const start = log.length;
  await work();
  return tally(log.slice(start));
}

function routeOf(e: RequestLogEntry): string {
  return `${e.method} ${e.path.replace(/\/\d+(?=\/|$)/g, "/{n}")}${e.operationName ? ` ${e.operationName}` : ""}`;
}

function routesOf(calls: readonly RequestLogEntry[]): string[] {
  const counts = new Map<string, number>();
  for (const e of calls) {
    const key = routeOf(e);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => (n > 1 ? `${key} ×${n}` : key));
}
