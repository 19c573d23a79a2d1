import type { z } from "zod";
import { createOnce } from "./create-once.ts";
import {
  GitHubError,
  graphqlLimitError,
  graphqlRateLimited,
  PLUGIN_GRAPHQL_LIMIT,
  statusOf,
  toGitHubError,
} from "./errors.ts";
import { createObserver, instrument, observed, type EtagCache, type OctokitLike } from "./instrument.ts";
import { createLabelIds } from "./label-ids.ts";
import { retryScheduleOf } from "./policy.ts";
import { sleep, type RateLimitTracker } from "./rate-limit.ts";
import type { Format, Params, SendOnce, Transport } from "./transport-types.ts";
import type { CallCounter, Log, RepoRef } from "./types.ts";

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

// What an installation token needs for the fields Locus reads that GitHub guards beyond the repository.
const GUARDED_FIELDS: Readonly<Record<string, string>> = { run: 'the "actions: read"' };

function graphqlError(error: unknown, operation: string, route: string): GitHubError {
  const errors = (error as { errors?: unknown }).errors;
  if (statusOf(error) === undefined && Array.isArray(errors)) {
    const text = errors.map((e: { message?: unknown }) => String(e.message)).join("; ");
    const forbidden = (errors as { type?: unknown; path?: unknown }[]).find((e) => e.type === "FORBIDDEN");
    if (forbidden) {
      const field = Array.isArray(forbidden.path) ? String(forbidden.path[0]) : "";
      const needed = GUARDED_FIELDS[field] ?? "a";
      return new GitHubError(
        `GitHub's GraphQL API refused ${operation}${field ? ` (${field})` : ""}: ${text}. The token lacks ${needed} permission: grant it to the GitHub App (its settings page, Permissions & events, then accept the change on the installation), or add it to the workflow's \`permissions:\` when the run uses GITHUB_TOKEN, and re-run.`,
        200,
        route,
        { cause: error, permissionRefused: true },
      );
    }
    return new GitHubError(
      `GitHub's GraphQL API refused ${operation}: ${text}. Check that the repository and numbers exist and that the token can read issues.`,
      200,
      route,
      { cause: error },
    );
  }
  return toGitHubError(error, route);
}

export function createTransport(deps: {
  octokit: OctokitLike;
  repo: RepoRef;
  tracker: RateLimitTracker;
  counter: CallCounter;
  log: Log;
  etags: EtagCache;
}): Transport {
  const { octokit, repo } = deps;
  instrument(octokit);
  const marker = observed(
    createObserver({
      tracker: deps.tracker,
      counter: deps.counter,
      etags: deps.etags,
      cacheKey: (options) => {
        const parsed = octokit.request.endpoint.parse(options);
        return `${String(parsed.headers.accept)} ${parsed.url}`;
      },
    }),
  );

  // `retries: 0` turns plugin-retry off for this one request (its per-request option).
  const requestOptions = (once: boolean) => {
    const options = marker();
    return once ? { request: { ...options.request, retries: 0 } } : options;
  };

  async function send(route: string, params: Params, format: Format | undefined, once = false) {
    try {
      return await octokit.request(route, {
        ...repo,
        ...params,
        ...requestOptions(once),
        ...(format ? { mediaType: { format } } : {}),
      });
    } catch (error) {
      throw toGitHubError(error, route);
    }
  }

  async function rest<S extends z.ZodType>(
    route: string,
    params: Params,
    schema: S,
    format?: Format,
    once = false,
  ): Promise<z.infer<S>> {
    const response = await send(route, params, format, once);
    return parse(schema, response.data, route, response.status);
  }

  async function graphql<S extends z.ZodType>(
    operation: string,
    query: string,
    variables: Params,
    schema: S,
    once = false,
  ): Promise<z.infer<S>> {
    const route = `graphql ${operation}`;
    let data: unknown;
    for (let attempt = 0; ; attempt += 1) {
      try {
        data = await octokit.graphql(query, { ...variables, ...requestOptions(once) });
        break;
      } catch (error) {
        if (!graphqlRateLimited(error)) throw graphqlError(error, operation, route);
        // plugin-throttling retries GraphQL only at /graphql (github.com); its own error means it has
        // waited out its retries already. Elsewhere (GHES's /api/graphql) the wait is the tracker's.
        const retried = error instanceof Error && error.message === PLUGIN_GRAPHQL_LIMIT;
        if (retried || attempt >= retryScheduleOf(octokit).retries || !deps.tracker.exhausted("graphql"))
          throw graphqlLimitError(error, operation, route);
      }
    }
    return parse(schema, data, route, 200);
  }

  const once: SendOnce = {
    rest: (route, params, schema, format) => rest(route, params, schema, format, true),
    graphql: (operation, query, variables, schema) => graphql(operation, query, variables, schema, true),
  };

  return {
    repo,
    labelIds: createLabelIds(),
    rest: (route, params, schema, format) => rest(route, params, schema, format),
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
    graphql: (operation, query, variables, schema) => graphql(operation, query, variables, schema),
    create: (create) =>
      createOnce({ once, schedule: retryScheduleOf(octokit), log: deps.log, wait: sleep }, create),
  };
}
