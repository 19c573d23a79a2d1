/**
 * What a GraphQL request costs in rate-limit points, as GitHub itself says:
 * each query also asks for `rateLimit { cost }` (under an alias of ours, taken
 * out of the answer before anyone reads it), which GitHub computes with its
 * published formula and does not charge for. A mutation cannot ask (the field
 * is on `Query` only) and counts as 1, the least a call costs. Counting
 * requests alone hides that one wide read can cost a hundred points, against
 * `GITHUB_TOKEN`'s 1,000 an hour.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#checking-the-status-of-your-primary-rate-limit
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call
 */

const ALIAS = "locusRateLimitCost";

// A named or anonymous query operation up to its selection set's opening brace.
const QUERY_HEAD = /^(\s*query\b[^{(]*(?:\([^)]*\))?[^{]*\{)/;

/** The query with the cost field added, or undefined when it is not a query this can extend. */
export function withCostField(query: string): string | undefined {
  if (query.includes(ALIAS)) return query;
  const head = QUERY_HEAD.exec(query)?.[1];
  return head === undefined ? undefined : `${head} ${ALIAS}: rateLimit { cost }${query.slice(head.length)}`;
}

/** Takes the cost out of a GraphQL answer (`{ data, errors }`), leaving the answer as asked for. */
export function takeCost(body: unknown): number | undefined {
  const data = (body as { data?: Record<string, unknown> | null } | null)?.data;
  if (!data || !(ALIAS in data)) return undefined;
  const cost = (data[ALIAS] as { cost?: unknown } | null)?.cost;
  delete data[ALIAS];
  return typeof cost === "number" ? cost : undefined;
}
