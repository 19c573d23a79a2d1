/** A GitHub call that failed, with a message the person reading the log can act on. */
export class GitHubError extends Error {
  override readonly name = "GitHubError";
  /** HTTP status; 0 when GitHub could not be reached at all. */
  readonly status: number;
  /** `METHOD /route/{template}` or `graphql <operation>`. */
  readonly route: string;
  /** GitHub's own message, when it answered one. */
  readonly detail: string | undefined;
  /** GitHub refused the token a permission (REST 403, GraphQL FORBIDDEN); the message names it. */
  readonly permissionRefused: boolean;

  constructor(
    message: string,
    status: number,
    route: string,
    options?: { cause?: unknown; detail?: string; permissionRefused?: boolean },
  ) {
    super(message, options);
    this.status = status;
    this.route = route;
    this.detail = options?.detail;
    this.permissionRefused = options?.permissionRefused ?? false;
  }
}

export function isGitHubError(error: unknown): error is GitHubError {
  return error instanceof GitHubError;
}

type ErrorLike = {
  status?: unknown;
  message?: unknown;
  errors?: unknown;
  request?: { url?: unknown };
  response?: { headers?: Record<string, unknown>; data?: unknown };
};

/** HTTP status of an Octokit error, or undefined when there was no HTTP answer. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as ErrorLike | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * The permissions GitHub said would have let the call through, from its
 * `x-accepted-github-permissions` header: sets separated by `;`, the
 * permissions of one set by `,`, each `name=access`; quoted as `"name: access"`.
 * https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api#resource-not-accessible
 */
function acceptedPermissions(headers: Record<string, unknown> | undefined): string | undefined {
  const value = headers?.["x-accepted-github-permissions"];
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const sets = value
    .split(";")
    .map((set) =>
      set
        .split(",")
        .map((permission) => permission.trim().split("="))
        .filter(([name, access]) => name && access)
        .map(([name, access]) => `"${name}: ${access}"`)
        .join(" and "),
    )
    .filter((set) => set !== "");
  return sets.length > 0 ? sets.join(" or ") : undefined;
}

// Which installation permission a route needs, when GitHub did not say, so a 403 can name it.
function permissionFor(route: string): string {
  if (/\/pulls\b/.test(route)) return "pull_requests";
  if (/\/actions\//.test(route)) return "actions";
  if (/\/contents\//.test(route)) return "contents";
  if (/\/(issues|labels|milestones)\b/.test(route)) return "issues";
  if (route.startsWith("graphql")) return "issues and pull_requests";
  return "metadata";
}

function githubMessage(error: ErrorLike): string {
  const data = error.response?.data as { message?: unknown; errors?: unknown } | undefined;
  const base =
    typeof data?.message === "string"
      ? data.message
      : typeof error.message === "string"
        ? error.message
        : "unknown error";
  const details = Array.isArray(data?.errors) ? data.errors : Array.isArray(error.errors) ? error.errors : [];
  const parts = details.map((d: unknown) =>
    typeof d === "string"
      ? d
      : typeof (d as { message?: unknown }).message === "string"
        ? String((d as { message: string }).message)
        : JSON.stringify(d),
  );
  return parts.length > 0 ? `${base} (${parts.join("; ")})` : base;
}

function resetText(headers: Record<string, unknown> | undefined): string {
  const reset = Number(headers?.["x-ratelimit-reset"]);
  return Number.isFinite(reset) && reset > 0 ? ` It resets at ${new Date(reset * 1000).toISOString()}.` : "";
}

// GitHub's answer when a workflow's GITHUB_TOKEN opens or approves a pull request and the repository does not allow it:
// https://docs.github.com/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository#preventing-github-actions-from-creating-or-approving-pull-requests
const ACTIONS_MAY_NOT_OPEN_PRS = /GitHub Actions is not permitted to create or approve pull requests/i;

/** Turns whatever Octokit threw into a GitHubError whose message says what to do next. */
export function toGitHubError(error: unknown, route: string): GitHubError {
  if (error instanceof GitHubError) return error;
  const e = (error ?? {}) as ErrorLike;
  // Octokit reports a failed fetch as a 500 without a response; that is "unreachable", not a server error.
  const status = e.response === undefined ? 0 : (statusOf(error) ?? 0);
  const url = typeof e.request?.url === "string" ? e.request.url : route;
  const headers = e.response?.headers;
  const detail = githubMessage(e);
  const write = !route.startsWith("GET ") && !route.startsWith("graphql query");
  const where = `${route} (${url})`;
  const rateLimited =
    (status === 403 || status === 429) &&
    (headers?.["x-ratelimit-remaining"] === "0" || /rate limit/i.test(detail));
  let message: string;
  if (rateLimited) {
    message = `GitHub API rate limit exhausted on ${where}: ${detail}.${resetText(headers)} Retries were used up; re-run after the reset, or run as a GitHub App installation, whose limit is higher than a personal token's.`;
  } else if (e.response === undefined) {
    message = `Could not reach GitHub for ${where}: ${detail}. Check the API URL (GITHUB_API_URL) and the network.`;
  } else if (status === 401) {
    message = `GitHub rejected the credentials on ${where}: ${detail}. The token is missing, expired or revoked: check the github-token input, or the app's id, private key and installation.`;
  } else if (status === 403 && ACTIONS_MAY_NOT_OPEN_PRS.test(detail)) {
    message = `GitHub refused ${where}: ${detail} The workflow's GITHUB_TOKEN may not open or approve pull requests in this repository: turn on Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests", or run the reusable workflow with app-url so Locus opens pull requests as the app (they then start your CI too). Then re-run.`;
  } else if (status === 403) {
    const needed = acceptedPermissions(headers) ?? `"${permissionFor(route)}: ${write ? "write" : "read"}"`;
    message = `GitHub refused ${where}: ${detail}. The token lacks the ${needed} permission: grant it to the GitHub App (its settings page, Permissions & events, then accept the change on the installation), or add it to the workflow's \`permissions:\` when the run uses GITHUB_TOKEN, and re-run.`;
  } else if (status === 404) {
    message = `GitHub found nothing at ${where}: ${detail}. The repository, number or name does not exist, or the token cannot see it (install the app on this repository).`;
  } else if (status === 409 || status === 422) {
    message = `GitHub rejected ${where} as invalid (${status}): ${detail}. Fix the request's data; retrying the same request will fail the same way.`;
  } else if (status >= 500) {
    message = `GitHub failed with a server error (${status}) on ${where}: ${detail}. Retries were used up; GitHub may be degraded, re-run later.`;
  } else {
    message = `GitHub answered ${status} to ${where}: ${detail}.`;
  }
  const permissionRefused = status === 403 && !rateLimited && !ACTIONS_MAY_NOT_OPEN_PRS.test(detail);
  return new GitHubError(message, status, route, { cause: error, detail, permissionRefused });
}

/** The message of the error plugin-throttling throws for a GraphQL RATE_LIMITED answer it has stopped retrying. */
export const PLUGIN_GRAPHQL_LIMIT = "GraphQL Rate Limit Exceeded";

type GraphqlErrorLike = {
  errors?: unknown;
  data?: { errors?: unknown };
  headers?: Record<string, unknown>;
  response?: { headers?: Record<string, unknown>; data?: { errors?: unknown } };
};

function graphqlErrors(error: unknown): { type?: unknown; message?: unknown }[] {
  const e = (error ?? {}) as GraphqlErrorLike;
  const found = [e.errors, e.data?.errors, e.response?.data?.errors].find(Array.isArray);
  return (found ?? []) as { type?: unknown; message?: unknown }[];
}

/**
 * Whether GitHub refused a GraphQL request for its points budget: 200 with a
 * `RATE_LIMITED` error, whether @octokit/graphql or plugin-throttling threw it.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#exceeding-the-rate-limit
 */
export function graphqlRateLimited(error: unknown): boolean {
  return graphqlErrors(error).some((e) => e.type === "RATE_LIMITED");
}

/** A GraphQL query refused for the points budget, after the waits for its reset were used up. */
export function graphqlLimitError(error: unknown, operation: string, route: string): GitHubError {
  const e = (error ?? {}) as GraphqlErrorLike;
  const headers = e.response?.headers ?? e.headers;
  const detail = graphqlErrors(error)
    .map((item) => String(item.message))
    .join("; ");
  const limit = Number(headers?.["x-ratelimit-limit"]);
  const budget = Number.isFinite(limit) && limit > 0 ? ` (${limit} points an hour)` : "";
  return new GitHubError(
    `GitHub's GraphQL rate limit${budget} is exhausted for this token on ${operation}: ${detail.replace(/\.+$/, "")}.${resetText(headers)} Retries were used up; re-run after the reset. A workflow's GITHUB_TOKEN has 1,000 points an hour per repository; running as the GitHub App installation gives 5,000 or more.`,
    200,
    route,
    { cause: error, detail },
  );
}
