import type { CallCounter, CallCounterSnapshot } from "./types.ts";

/** Counts the GitHub calls of one run, for reports and benchmarks. Share one across gateways to total a run. */
export function createCallCounter(): CallCounter {
  const byRoute = new Map<string, number>();
  let reads = 0;
  let writes = 0;
  let notModified = 0;
  let retries = 0;
  const pointsByRoute = new Map<string, number>();
  return {
    record(call) {
      byRoute.set(call.key, (byRoute.get(call.key) ?? 0) + 1);
      if (call.points !== undefined)
        pointsByRoute.set(call.key, (pointsByRoute.get(call.key) ?? 0) + call.points);
      if (call.write) writes += 1;
      else reads += 1;
      if (call.notModified) notModified += 1;
      retries += call.retries;
    },
    snapshot(): CallCounterSnapshot {
      return {
        total: reads + writes,
        reads,
        writes,
        notModified,
        retries,
        byRoute: Object.fromEntries([...byRoute].sort(([a], [b]) => a.localeCompare(b))),
        graphqlPoints: [...pointsByRoute.values()].reduce((sum, points) => sum + points, 0),
        pointsByRoute: Object.fromEntries([...pointsByRoute].sort(([a], [b]) => a.localeCompare(b))),
      };
    },
  };
}
