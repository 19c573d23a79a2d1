import { createHash } from "node:crypto";
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { restEndpointMethods } from "@octokit/plugin-rest-endpoint-methods";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { createOctokitPolicy, type OctokitPolicyOptions } from "./policy.ts";

const ActionOctokit = Octokit.plugin(throttling, retry, paginateRest, restEndpointMethods);

export type ActionOctokit = InstanceType<typeof ActionOctokit>;

export type ActionOctokitOptions = Omit<OctokitPolicyOptions, "throttleId"> & {
  token: string;
  /** https://api.github.com, GHES's https://host/api/v3, or a simulator's http://127.0.0.1:port. */
  baseUrl: string;
  userAgent?: string;
  /** Defaults to a digest of the token, so each token gets its own write queue. */
  throttleId?: string;
};

/** The Action's octokit: what Probot gives the app, minus Probot. */
export function createActionOctokit(options: ActionOctokitOptions): ActionOctokit {
  const throttleId =
    options.throttleId ?? `locus-${createHash("sha256").update(options.token).digest("hex").slice(0, 16)}`;
  return new ActionOctokit({
    auth: options.token,
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    userAgent: options.userAgent ?? "locus-action",
    log: options.log,
    ...createOctokitPolicy({ ...options, throttleId }),
  });
}
