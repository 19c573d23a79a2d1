// Primary rate limits, per token and per resource, as GitHub reports them in x-ratelimit-* headers.

export type RateResource = "core" | "graphql";

export interface RateLimitOptions {
  core?: number;
  graphql?: number;
  windowSeconds?: number;
}

export interface Bucket {
  limit: number;
  used: number;
  reset: number;
}

export interface RateLimiter {
  peek: (key: string, resource: RateResource) => Bucket;
  consume: (key: string, resource: RateResource, cost: number) => Bucket;
}

export function createRateLimiter(options: RateLimitOptions, now: () => Date): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const windowSeconds = options.windowSeconds ?? 3600;
  const limits: Record<RateResource, number> = {
    core: options.core ?? 5000,
    graphql: options.graphql ?? 5000,
  };
  function peek(key: string, resource: RateResource): Bucket {
    const seconds = Math.floor(now().getTime() / 1000);
    const id = `${resource}:${key}`;
    let bucket = buckets.get(id);
    if (!bucket || bucket.reset <= seconds) {
      bucket = { limit: limits[resource], used: 0, reset: seconds + windowSeconds };
      buckets.set(id, bucket);
    }
    return bucket;
  }
  function consume(key: string, resource: RateResource, cost: number): Bucket {
    const bucket = peek(key, resource);
    bucket.used = Math.min(bucket.limit, bucket.used + cost);
    return bucket;
  }
  return { peek, consume };
}

export function rateLimitHeaders(bucket: Bucket, resource: RateResource): Record<string, string> {
  return {
    "x-ratelimit-limit": String(bucket.limit),
    "x-ratelimit-remaining": String(bucket.limit - bucket.used),
    "x-ratelimit-reset": String(bucket.reset),
    "x-ratelimit-used": String(bucket.used),
    "x-ratelimit-resource": resource,
  };
}
