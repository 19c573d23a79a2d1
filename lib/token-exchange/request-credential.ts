/**
 * Which credential the Action uses for one GitHub request when its tokens come
 * from the exchange. Writing code or pull requests (a push, a PR, a review, a
 * review-thread reply) takes the publish token, which is first asked for when
 * the first such write happens: in every mode, after the agent has stopped.
 * Workflow runs (the stale sweep's dispatches and run listings) take the
 * workflow's own `GITHUB_TOKEN`, since exchanged tokens never carry `actions: write`.
 * Everything else — reads, labels, comments, the live status edits — takes
 * the agent token.
 */
import type { Phase } from "./phases.ts";

export type Credential = Phase | "workflow";

const PULL_WRITE_MUTATIONS =
  /\b(addPullRequestReview\w*|resolveReviewThread|unresolveReviewThread|updatePullRequest\w*|createPullRequest|mergePullRequest|submitPullRequestReview)\b/;

export function credentialFor(request: { method: string; url: string; query?: string }): Credential {
  const method = request.method.toUpperCase();
  const path =
    request.url
      .replace(/^https?:\/\/[^/]+/, "")
      .replace(/^\/api\/v3/, "")
      .split("?")[0] ?? "";
  if (/^\/repos\/[^/]+\/[^/]+\/actions\//.test(path)) return "workflow";
  if (method === "POST" && /^\/(api\/)?graphql$/.test(path)) {
    return request.query !== undefined &&
      /^\s*mutation\b/.test(request.query) &&
      PULL_WRITE_MUTATIONS.test(request.query)
      ? "publish"
      : "agent";
  }
  if (method === "GET" || method === "HEAD") return "agent";
  if (/^\/repos\/[^/]+\/[^/]+\/(pulls|git|contents|merges)(\/|$)/.test(path)) return "publish";
  return "agent";
}
