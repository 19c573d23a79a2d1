import type { z } from "zod";
import { GitHubError, statusOf, toGitHubError } from "./errors.ts";
import { createObserver, instrument, observed, type OctokitLike } from "./instrument.ts";
import type { RateLimitTracker } from "./rate-limit.ts";
import type { CallCounter, RepoRef } from "./types.ts";

export type Params = Record<string, unknown>;

/** `diff` and `raw` ask GitHub for text instead of JSON. */
export type Format = "diff" | "raw";

export type Transport = {
  repo: RepoRef;
  rest<S extends z.ZodType>(route: string, params: Params, schema: S, format?: Format): Promise<z.infer<S>>;
  /** As `rest`, but a 404 or 410 ("it is not there") answers null. */
  restOrNull<S extends z.ZodType>(
    route: string,
    params: Params,
    schema: S,
    format?: Format,
  ): Promise<z.infer<S> | null>;
  /** Every page of a list endpoint, 100 a page. */
  restPages<S extends z.ZodType>(route: string, params: Params, item: S): Promise<z.infer<S>[]>;
  graphql<S extends z.ZodType>(
    operation: string,
    query: string,
    variables: Params,
    schema: S,
  ): Promise<z.infer<S>>;
};

const PAGE_SIZE = 100;

function parse<S extends z.ZodType>(schema: S, data: unknown, route: string, status: number): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const at = issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "unknown";
  throw new GitHubError(
    `GitHub answered ${route} with data Locus does not understand (${at}). The API version or a proxy in between may differ from github.com's.`,
    status,
    route,
  );
}

function hasNextPage(link: unknown): boolean {
  return typeof link === "string" && /rel="next"/.test(link);
}

export function createTransport(deps: {
  octokit: OctokitLike;
  repo: RepoRef;
  tracker: RateLimitTracker;
  counter: CallCounter;
}): Transport {
  const { octokit, repo } = deps;
  instrument(octokit);
  const marker = observed(
    createObserver({
      tracker: deps.tracker,
      counter: deps.counter,
      cacheKey: (options) => {
        const parsed = octokit.request.endpoint.parse(options);
        return `${String(parsed.headers.accept)} ${parsed.url}`;
      },
    }),
  );

  async function send(route: string, params: Params, format: Format | undefined) {
    try {
      return await octokit.request(route, {
        ...repo,
        ...params,
        ...marker(),
        ...(format ? { mediaType: { format } } : {}),
      });
    } catch (error) {
      throw toGitHubError(error, route);
    }
  }

  async function rest<S extends z.ZodType>(route: string, params: Params, schema: S, format?: Format) {
    const response = await send(route, params, format);
    return parse(schema, response.data, route, response.status);
  }

  return {
    repo,
    rest,
    async restOrNull(route, params, schema, format) {
      try {
        return await rest(route, params, schema, format);
      } catch (error) {
        const status = statusOf(error);
        if (status === 404 || status === 410) return null;
        throw error;
      }
    },
    async restPages(route, params, item) {
      const items: z.infer<typeof item>[] = [];
      for (let page = 1; ; page += 1) {
        const response = await send(route, { ...params, per_page: PAGE_SIZE, page }, undefined);
        const data = parse(item.array(), response.data, route, response.status);
        items.push(...data);
        if (data.length < PAGE_SIZE || !hasNextPage(response.headers.link)) return items;
      }
    },
    async graphql(operation, query, variables, schema) {
      const route = `graphql ${operation}`;
      let data: unknown;
      try {
        data = await octokit.graphql(query, { ...variables, ...marker() });
      } catch (error) {
        const errors = (error as { errors?: unknown }).errors;
        if (statusOf(error) === undefined && Array.isArray(errors)) {
          const text = errors.map((e: { message?: unknown }) => String(e.message)).join("; ");
          throw new GitHubError(
            `GitHub's GraphQL API refused ${operation}: ${text}. Check that the repository and numbers exist and that the token can read issues.`,
            200,
            route,
            { cause: error },
          );
        }
        throw toGitHubError(error, route);
      }
      return parse(schema, data, route, 200);
    },
  };
}
