/**
 * Collaborator permissions change rarely but are read on every command: keep
 * each answer briefly, per repository and user, so a burst of comments costs
 * one lookup, while a revoked permission stops working within a minute.
 */
export interface PermissionCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
}

export function createPermissionCache<T>(options: {
  ttlMs: number;
  now: () => number;
  maxEntries?: number;
}): PermissionCache<T> {
  const entries = new Map<string, { value: Promise<T>; expires: number }>();
  const maxEntries = options.maxEntries ?? 5_000;
  return {
    get(key, load) {
      const now = options.now();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      const value = load();
      // A failed lookup is not remembered: the next event asks again.
      value.catch(() => entries.delete(key));
      entries.delete(key);
      entries.set(key, { value, expires: now + options.ttlMs });
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return value;
    },
  };
}
