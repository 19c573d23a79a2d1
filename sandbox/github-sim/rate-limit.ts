// Primary rate limits, per token and per resource, as GitHub reports them in x-ratelimit-* headers.

export type RateResource = "core" | "graphql";

export interface RateLimitOptions {
  core?: number;
  /** The GraphQL points of every token kind; without it, each kind has GitHub's own (graphql-budget.ts). */
  graphql?: number;
  windowSeconds?: number;
}

export interface Bucket {
  limit: number;
  used: number;
  reset: number;
}

/** Whose budget a request draws on and how large it is, when it is not the token's own default one. */
export interface Budget {
  key: string;
  limit: number;
}

export interface RateLimiter {
  peek: (key: string, resource: RateResource) => Bucket;
  consume: (key: string, resource: RateResource, cost: number) => Bucket;
}

/**
 * `budgetOf` maps a token (or login) to the budget it shares with others: GitHub
 * counts GraphQL points per user, per installation and per repository for a
 * workflow's `GITHUB_TOKEN`, each with its own size.
 */
export function createRateLimiter(
  options: RateLimitOptions,
  now: () => Date,
  budgetOf: (key: string, resource: RateResource) => Budget | undefined = () => undefined,
): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const windowSeconds = options.windowSeconds ?? 3600;
  const limits: Record<RateResource, number> = {
    core: options.core ?? 5000,
    graphql: options.graphql ?? 5000,
  };
  function peek(key: string, resource: RateResource): Bucket {
    const seconds = Math.floor(now().getTime() / 1000);
    const budget = budgetOf(key, resource);
    const id = `${resource}:${budget?.key ?? key}`;
    const limit = budget?.limit ?? limits[resource];
    let bucket = buckets.get(id);
    if (!bucket || bucket.reset <= seconds) {
      bucket = { limit, used: 0, reset: seconds + windowSeconds };
      buckets.set(id, bucket);
    }
    // An installation's budget grows with its repositories while the window runs.
    bucket.limit = limit;
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
    "x-ratelimit-remaining": String(Math.max(0, bucket.limit - bucket.used)),
    "x-ratelimit-reset": String(bucket.reset),
    "x-ratelimit-used": String(bucket.used),
    "x-ratelimit-resource": resource,
  };
}
