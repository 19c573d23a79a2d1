/**
 * One conditional-request cache per installation, shared by the gateways of
 * its events: each delivery builds a fresh gateway, and without this every
 * event would read `.github/locus.yml` in full. Bounded twice: answers per
 * installation (the cache's own limit) and installations remembered.
 */
import { createEtagCache, type EtagCache } from "../lib/github/index.ts";

// An app serving more installations than this re-reads the coldest in full.
const INSTALLATIONS_REMEMBERED = 1_000;
// The config file, labels and a few issues each: far fewer than a run's 500.
const ANSWERS_PER_INSTALLATION = 100;

export function createInstallationEtags(
  limit = INSTALLATIONS_REMEMBERED,
): (installation: number | undefined) => EtagCache {
  const caches = new Map<number, EtagCache>();
  return (installation) => {
    if (installation === undefined) return createEtagCache(ANSWERS_PER_INSTALLATION);
    const cache = caches.get(installation) ?? createEtagCache(ANSWERS_PER_INSTALLATION);
    caches.delete(installation);
    caches.set(installation, cache);
    if (caches.size > limit) {
      const oldest = caches.keys().next();
      if (!oldest.done) caches.delete(oldest.value);
    }
    return cache;
  };
}
