/**
 * One line saying what a run cost on GitHub, for the job's log: the calls
 * Locus made, and the GraphQL rate-limit points they spent (which, unlike the
 * call count, is what a `GITHUB_TOKEN`'s 1,000 points an hour are measured in).
 */
import type { CallCounterSnapshot } from "./types.ts";

export function describeCalls(snapshot: CallCounterSnapshot): string {
  const operations = Object.entries(snapshot.pointsByRoute)
    .map(([route, points]) => `${route.replace(/^graphql (query|mutation) /, "")} ${points}`)
    .join(", ");
  return (
    `GitHub calls: ${snapshot.total} (${snapshot.reads} reads, ${snapshot.writes} writes, ` +
    `${snapshot.notModified} not modified, ${snapshot.retries} retries); ` +
    `GraphQL points: ${snapshot.graphqlPoints}${operations ? ` (${operations})` : ""}`
  );
}
