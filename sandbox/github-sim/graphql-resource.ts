/**
 * `resource(url:)` for the one kind Locus looks up by URL: a workflow run,
 * whose creation time GitHub sets and whoever dispatched it cannot choose.
 * An installation token reads it only with `actions: read`, as its REST twin;
 * without, GitHub leaves the field null with a FORBIDDEN error ("Resource not
 * accessible by integration"), the answer reported for a token without
 * `actions` asking exactly this.
 * https://docs.github.com/en/graphql/reference/queries#resource
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
import { GraphQLError } from "graphql";
import type { SimCore } from "./core.ts";
import type { TokenRecord, User } from "./model.ts";
import { nodeId } from "./serialize-user.ts";
import { findRepo, permissionOf } from "./store.ts";
import { acceptedHeader, allows, WORKFLOW_RUN_READ } from "./token-permissions.ts";

export function resourceNode(
  core: SimCore,
  viewer: User,
  token: TokenRecord | null,
  url: string,
): Record<string, unknown> | null {
  const prefix = `${core.urls.web}/`;
  if (!url.startsWith(prefix)) return null;
  const match = /^([^/]+)\/([^/]+)\/actions\/runs\/(\d+)$/.exec(url.slice(prefix.length));
  if (!match) return null;
  const repo = findRepo(core.store, match[1] ?? "", match[2] ?? "");
  if (!repo || permissionOf(core.store, repo, viewer.login) === "none") return null;
  if (!allows(token, WORKFLOW_RUN_READ)) {
    core.store.permissionViolations.push({
      kind: "refused",
      route: "graphql resource(url:) WorkflowRun",
      login: viewer.login,
      needed: acceptedHeader(WORKFLOW_RUN_READ),
    });
    throw new GraphQLError("Resource not accessible by integration", { extensions: { type: "FORBIDDEN" } });
  }
  const run = repo.runs.find((candidate) => candidate.id === Number(match[3]));
  if (!run) return null;
  return {
    __typename: "WorkflowRun",
    id: nodeId("WFR", run.id),
    databaseId: run.id,
    runNumber: run.runNumber,
    event: run.event,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    url,
    resourcePath: `/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
  };
}
