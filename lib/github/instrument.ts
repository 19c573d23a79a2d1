import type { Octokit } from "@octokit/core";
import type { Hooks } from "@octokit/core/types";
import { statusOf } from "./errors.ts";
import { takeCost, withCostField } from "./graphql-points.ts";
import type { RateLimitTracker } from "./rate-limit.ts";
import type { CallCounter } from "./types.ts";

/** The part of an Octokit the gateway uses: Probot's and createActionOctokit's both fit. */
export type OctokitLike = Pick<Octokit, "request" | "graphql" | "hook">;

type Options = Hooks["request"]["Options"];
type Response = Hooks["request"]["Result"];
type Send = (options: Options) => Response | Promise<Response>;
type Observer = (send: Send, options: Options) => Promise<Response>;

// Requests carry their gateway's observer in `options.request`, which Octokit
// passes through untouched. One hook per Octokit then serves every gateway
// built on it, and requests made by others (Probot's config loader, auth) pass
// through unobserved.
const OBSERVER = "locusObserver";
const instrumented = new WeakSet<object>();

export function instrument(octokit: OctokitLike): void {
  if (instrumented.has(octokit)) return;
  instrumented.add(octokit);
  // Registered after the plugins, so this wraps them: it sees one logical
  // request, after any throttling and retries inside have run.
  octokit.hook.wrap("request", (send, options) => {
    const observer = (options.request as Record<string, unknown> | undefined)?.[OBSERVER] as
      Observer | undefined;
    return observer ? observer(send, options) : send(options);
  });
}

/** Request parameters that route a request through `observer`; a fresh object each call, as Octokit may keep it. */
export function observed(observer: Observer): () => { request: Record<string, unknown> } {
  return () => ({ request: { [OBSERVER]: observer } });
}

type Cached = { etag: string; response: Response };

/**
 * GET answers remembered by URL with their ETag, most recently used kept, so a
 * re-read can be conditional: a 304 returns the remembered answer and costs
 * no rate limit.
 */
export interface EtagCache {
  get(key: string): Cached | undefined;
  remember(key: string, response: Response): void;
  /**
   * Runs `read` unless the same GET is already in flight, and then shares its
   * answer: a burst of events re-reading one file costs one request, where
   * each would otherwise go out before any answer could make it conditional.
   */
  shared(key: string, read: () => Promise<Response>): Promise<Response>;
}

// Enough for every issue, comment page and PR one run re-reads.
const ETAG_CACHE_LIMIT = 500;

export function createEtagCache(limit = ETAG_CACHE_LIMIT): EtagCache {
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<Response>>();
  return {
    get: (key) => cache.get(key),
    shared(key, read) {
      const running = inFlight.get(key);
      if (running) return running;
      const started = read().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    remember(key, response) {
      const etag = response.headers.etag;
      if (typeof etag !== "string") return;
      cache.delete(key);
      cache.set(key, { etag, response });
      if (cache.size > limit) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
    },
  };
}

function resourceOf(url: string): string {
  if (/\/graphql$/.test(url)) return "graphql";
  if (url.startsWith("/search/")) return "search";
  return "core";
}

function callKey(options: Options): { key: string; write: boolean } {
  const url = String(options.url);
  if (/\/graphql$/.test(url)) {
    const query = typeof options["query"] === "string" ? options["query"] : "";
    const match = /^\s*(query|mutation)\s+(\w+)/.exec(query);
    const kind = match?.[1] ?? "query";
    return { key: `graphql ${kind} ${match?.[2] ?? "anonymous"}`, write: kind === "mutation" };
  }
  const method = String(options.method).toUpperCase();
  return { key: `${method} ${url}`, write: method !== "GET" && method !== "HEAD" };
}

/**
 * Builds the observer of one gateway: waits out a nearly exhausted rate limit,
 * sends If-None-Match for GETs it has read before (a 304 returns the cached
 * answer and costs no rate limit), reads rate-limit headers and counts the call.
 */
export function createObserver(deps: {
  tracker: RateLimitTracker;
  counter: CallCounter;
  cacheKey: (options: Options) => string;
  etags: EtagCache;
}): Observer {
  const cache = deps.etags;
  const remember = (key: string, response: Response) => cache.remember(key, response);

  const observe = async (send: Send, options: Options, cacheKey: string | undefined): Promise<Response> => {
    const resource = resourceOf(String(options.url));
    const { key, write } = callKey(options);
    const graphql = resource === "graphql";
    if (graphql && !write && typeof options["query"] === "string") {
      const asked = withCostField(options["query"]);
      if (asked !== undefined) options["query"] = asked;
    }
    const pointsOf = (response: Response | undefined): number | undefined => {
      if (!graphql) return undefined;
      return (write ? undefined : takeCost(response?.data)) ?? 1;
    };
    const cached = cacheKey === undefined ? undefined : cache.get(cacheKey);
    // Octokit's hook chain hands every layer the original options object and
    // drops what a layer passes down, so changes must be made in place (the
    // plugins do the same). `options` is merged afresh for each request.
    if (cached) options.headers["if-none-match"] = cached.etag;
    // Retries happen inside the plugins, below this hook; a fetch of our own
    // at the bottom of the stack sees every attempt.
    let attempts = 0;
    const inner = options.request.fetch as typeof fetch | undefined;
    options.request.fetch = ((input, init) => {
      attempts += 1;
      return (inner ?? globalThis.fetch)(input, init);
    }) satisfies typeof fetch;
    await deps.tracker.beforeRequest(resource);
    const retriesOf = () => Math.max(0, attempts - 1);
    try {
      const response = await send(options);
      deps.tracker.observe(response.headers, resource);
      deps.counter.record({
        key,
        write,
        notModified: false,
        retries: retriesOf(),
        ...(graphql ? { points: pointsOf(response) } : {}),
      });
      if (cacheKey !== undefined) remember(cacheKey, response);
      return response;
    } catch (error) {
      const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers;
      deps.tracker.observe(headers, resource);
      const notModified = statusOf(error) === 304 && cached !== undefined;
      const failed = (error as { response?: Response }).response;
      deps.counter.record({
        key,
        write,
        notModified,
        retries: retriesOf(),
        ...(graphql ? { points: pointsOf(failed) } : {}),
      });
      if (notModified && cacheKey !== undefined) {
        remember(cacheKey, cached.response);
        return cached.response;
      }
      throw error;
    }
  };

  return (send, options) => {
    if (String(options.method).toUpperCase() !== "GET") return observe(send, options, undefined);
    const cacheKey = deps.cacheKey(options);
    return cache.shared(cacheKey, () => observe(send, options, cacheKey));
  };
}
