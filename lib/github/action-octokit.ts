import { createHash } from "node:crypto";
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { restEndpointMethods } from "@octokit/plugin-rest-endpoint-methods";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { createOctokitPolicy, type OctokitPolicyOptions } from "./policy.ts";

const ActionOctokit = Octokit.plugin(throttling, retry, paginateRest, restEndpointMethods);

export type ActionOctokit = InstanceType<typeof ActionOctokit>;

/** What a per-request token is chosen by: the route's method and URL (template or full) and a GraphQL query. */
export interface TokenRequest {
  readonly method: string;
  readonly url: string;
  readonly query?: string;
}

export type ActionOctokitOptions = Omit<OctokitPolicyOptions, "throttleId"> & {
  /** One token, or a token chosen for each request (the token exchange's phases). */
  token: string | ((request: TokenRequest) => Promise<string>);
  /** https://api.github.com, GHES's https://host/api/v3, or a simulator's http://127.0.0.1:port. */
  baseUrl: string;
  userAgent?: string;
  /** Defaults to a digest of the token, so each token gets its own write queue. */
  throttleId?: string;
};

/** The Action's octokit: what Probot gives the app, minus Probot. */
export function createActionOctokit(options: ActionOctokitOptions): ActionOctokit {
  const { token } = options;
  const throttleId =
    options.throttleId ??
    `locus-${typeof token === "string" ? createHash("sha256").update(token).digest("hex").slice(0, 16) : "exchange"}`;
  const octokit = new ActionOctokit({
    ...(typeof token === "string" ? { auth: token } : {}),
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    userAgent: options.userAgent ?? "locus-action",
    log: options.log,
    ...createOctokitPolicy({ ...options, throttleId }),
  });
  if (typeof token !== "string") {
    octokit.hook.wrap("request", async (request, endpoint) => {
      const query = (endpoint as { query?: unknown }).query;
      const chosen = await token({
        method: endpoint.method,
        url: endpoint.url,
        ...(typeof query === "string" ? { query } : {}),
      });
      endpoint.headers.authorization = `token ${chosen}`;
      return request(endpoint);
    });
  }
  return octokit;
}
