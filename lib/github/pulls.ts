import { z } from "zod";
import { sameText } from "./comments.ts";
import { pullRequestSchema, reviewCommentSchema, reviewSchema } from "./schemas.ts";
import type { Transport } from "./transport-types.ts";
import type { GitHubGateway, ReviewEvent, ReviewState } from "./types.ts";

const STATE_OF: Record<ReviewEvent, ReviewState> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

type PullOps = Pick<
  GitHubGateway,
  | "createPullRequest"
  | "findPullRequestByHead"
  | "getPullRequest"
  | "updatePullRequest"
  | "getPullRequestDiff"
  | "listReviewComments"
  | "listReviews"
  | "createReview"
>;

export function pullOps(t: Transport): PullOps {
  const listReviews: PullOps["listReviews"] = (pr) =>
    t.restPages("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", { pull_number: pr }, reviewSchema);

  const findPullRequestByHead: PullOps["findPullRequestByHead"] = async (branch, opts = {}) => {
    // `head` must be owner-qualified, or GitHub ignores the filter and lists every PR.
    const found = await t.rest(
      "GET /repos/{owner}/{repo}/pulls",
      { head: `${t.repo.owner}:${branch}`, state: opts.state ?? "open", per_page: 1 },
      z.array(pullRequestSchema),
    );
    return found[0] ?? null;
  };

  return {
    createPullRequest(pr) {
      return t.create({
        what: `pull request from ${pr.head}`,
        send: (once) => once.rest("POST /repos/{owner}/{repo}/pulls", { ...pr }, pullRequestSchema),
        // GitHub keeps one open PR per head and base: an open one is the one asked for.
        async landed() {
          const open = await findPullRequestByHead(pr.head);
          return open?.base.ref === pr.base ? open : null;
        },
      });
    },
    findPullRequestByHead,
    getPullRequest(pr) {
      return t.restOrNull(
        "GET /repos/{owner}/{repo}/pulls/{pull_number}",
        { pull_number: pr },
        pullRequestSchema,
      );
    },
    updatePullRequest(pr, patch) {
      return t.rest(
        "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
        { pull_number: pr, ...patch },
        pullRequestSchema,
      );
    },
    getPullRequestDiff(pr) {
      return t.rest("GET /repos/{owner}/{repo}/pulls/{pull_number}", { pull_number: pr }, z.string(), "diff");
    },
    listReviewComments(pr, opts = {}) {
      return t.restPages(
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments",
        { pull_number: pr, ...(opts.since === undefined ? {} : { since: opts.since }) },
        reviewCommentSchema,
      );
    },
    listReviews,
    createReview(pr, review) {
      return t.create({
        what: `review of #${pr}`,
        send: (once) =>
          once.rest(
            "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
            {
              pull_number: pr,
              event: review.event,
              body: review.body,
              ...(review.commitId === undefined ? {} : { commit_id: review.commitId }),
              comments: (review.comments ?? []).map((c) => ({
                path: c.path,
                line: c.line,
                side: c.side ?? "RIGHT",
                body: c.body,
              })),
            },
            reviewSchema,
          ),
        // A review with the same verdict and text, submitted since, is this one.
        async landed(since) {
          const reviews = await listReviews(pr);
          const found = reviews.find(
            (r) =>
              r.state === STATE_OF[review.event] &&
              sameText(r.body, review.body) &&
              r.submittedAt !== null &&
              Date.parse(r.submittedAt) >= since.getTime(),
          );
          return found ?? null;
        },
      });
    },
  };
}
