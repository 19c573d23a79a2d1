/**
 * The GraphQL API's primary rate limit: the points each kind of token may
 * spend in an hour, and whose budget it shares, as GitHub documents them
 * (GitHub Enterprise Cloud's larger budgets are not simulated):
 * - a person's token: 5,000 points an hour per user;
 * - a GitHub App installation: 5,000 an hour per installation, plus 50 for each
 *   repository when it has more than 20, plus 50 for each user of an
 *   organization with more than 20, never above 12,500;
 * - a workflow's `GITHUB_TOKEN`: 1,000 an hour per repository.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#primary-rate-limit
 * When a query costs more than is left, GitHub refuses it with 200 and a
 * `RATE_LIMITED` error (https://github.com/github/docs/issues/22607 shows the
 * answer; the docs say only "you will receive an error message").
 */
import type { Store, TokenRecord } from "./model.ts";
import type { Budget } from "./rate-limit.ts";
import { findUser } from "./store.ts";

export const USER_POINTS = 5000;
export const WORKFLOW_TOKEN_POINTS = 1000;
const INSTALLATION_POINTS = 5000;
const INSTALLATION_MAX_POINTS = 12_500;

/** An installation's hourly points from its repositories and its organization's users. */
export function installationPoints(repositories: number, organizationUsers: number): number {
  let points = INSTALLATION_POINTS;
  if (repositories > 20) points += 50 * repositories;
  if (organizationUsers > 20) points += 50 * organizationUsers;
  return Math.min(points, INSTALLATION_MAX_POINTS);
}

function installationBudget(store: Store, installationId: number): number {
  const installation = store.installations.get(installationId);
  if (!installation) return INSTALLATION_POINTS;
  const account = installation.account.toLowerCase();
  const repos = [...store.repos.values()].filter((repo) => repo.owner.toLowerCase() === account);
  // The simulator knows an organization's people only as its repositories' collaborators.
  const organization = findUser(store, installation.account)?.type === "Organization";
  const users = new Set(repos.flatMap((repo) => [...repo.collaborators.keys()]));
  return installationPoints(repos.length, organization ? users.size : 0);
}

/** The budget a token (or, for a request without one, a login) draws its GraphQL points from. */
export function graphqlBudget(store: Store, key: string, override?: number): Budget {
  const record: TokenRecord | undefined = store.tokens.get(key);
  const sized = (budget: Budget): Budget =>
    override === undefined ? budget : { ...budget, limit: override };
  if (record?.kind === "workflow" && record.repository !== undefined)
    return sized({ key: `repository:${record.repository}`, limit: WORKFLOW_TOKEN_POINTS });
  if (record?.kind === "installation" && record.installationId !== null)
    return sized({
      key: `installation:${record.installationId}`,
      limit: installationBudget(store, record.installationId),
    });
  return sized({ key: `user:${(record?.login ?? key).toLowerCase()}`, limit: USER_POINTS });
}

/** GitHub's answer to a query that costs more points than the token has left. */
export function rateLimitedAnswer(
  store: Store,
  token: TokenRecord | null,
  login: string,
): Record<string, unknown> {
  const who =
    token?.kind === "installation" && token.installationId !== null
      ? `installation ID ${token.installationId}`
      : `user ID ${findUser(store, login)?.id ?? 0}`;
  return { errors: [{ type: "RATE_LIMITED", message: `API rate limit exceeded for ${who}.` }] };
}
