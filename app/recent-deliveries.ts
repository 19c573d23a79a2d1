/**
 * Delivery ids this process has already taken: a redelivery to the same
 * replica is dropped before any GitHub call. Across replicas and restarts the
 * record on GitHub (the status comment) is what keeps dispatch exactly-once.
 */
export interface RecentDeliveries {
  /** True the first time an id is seen, false for a repeat. */
  firstTime(id: string): boolean;
}

export function createRecentDeliveries(capacity = 10_000): RecentDeliveries {
  const seen = new Set<string>();
  return {
    firstTime(id) {
      if (seen.has(id)) return false;
      seen.add(id);
      if (seen.size > capacity) {
        const oldest = seen.values().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      return true;
    },
  };
}
