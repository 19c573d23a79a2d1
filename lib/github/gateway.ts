import { attachmentOps } from "./attachment-download.ts";
import { answerReviewFeedbackOps } from "./answer-review-feedback.ts";
import { branchCommitOps } from "./branch-commits.ts";
import { ciReadOps } from "./ci-reads.ts";
import { pullStackOps } from "./pull-stack.ts";
import { commentOps } from "./comments.ts";
import { createCallCounter } from "./counter.ts";
import { createEtagCache, type EtagCache, type OctokitLike } from "./instrument.ts";
import { issueOps } from "./issues.ts";
import { labelOps } from "./labels.ts";
import { milestoneOps } from "./milestones.ts";
import { momentOps } from "./moment-writes.ts";
import { pullFeedbackOps } from "./pull-feedback.ts";
import { pullOps } from "./pulls.ts";
import { createRateLimitTracker, type RateLimitOptions } from "./rate-limit.ts";
import { dependencyReviewOps } from "./dependency-review.ts";
import { repositoryOps } from "./repository.ts";
import { repositoryStatusOps } from "./repository-status-read.ts";
import { taskReadOps } from "./task-read.ts";
import { createTransport } from "./transport.ts";
import type { CallCounter, GitHubGateway, Log, RepoRef } from "./types.ts";

export type GatewayOptions = {
  /**
   * Probot's octokit or createActionOctokit's. Retrying is the octokit's job
   * (its throttling and retry plugins, configured by createOctokitPolicy); the
   * gateway never re-sends a request, so retries are never doubled. Except a
   * create: the gateway re-sends that itself, on the policy's schedule, and
   * only when GitHub does not have it already (create-once.ts).
   */
  octokit: OctokitLike;
  repo: RepoRef;
  log: Log;
  /** Pass one counter to several gateways to total a whole run. */
  counter?: CallCounter;
  rateLimit?: RateLimitOptions;
  /**
   * Pass one cache to the gateways of one installation so a later event's
   * re-read (the config file, above all) is conditional too. Never share one
   * across installations: a remembered answer is what that installation may read.
   */
  etags?: EtagCache;
  /**
   * The logins Locus writes as. A comment found by its hidden marker (the
   * status comment, a sticky notice) counts only when one of them wrote it:
   * anyone can type `<!-- locus:status -->`. A gateway that reads no such
   * record says so with an empty list: then no comment counts as Locus's.
   */
  ownLogins: readonly string[];
};

export function createGateway(options: GatewayOptions): GitHubGateway {
  const counter = options.counter ?? createCallCounter();
  const tracker = createRateLimitTracker(options.log, options.rateLimit);
  const t = createTransport({
    octokit: options.octokit,
    repo: options.repo,
    tracker,
    counter,
    log: options.log,
    etags: options.etags ?? createEtagCache(),
  });
  const issues = issueOps(t);
  const labels = labelOps(t);
  const comments = commentOps(t, issues.listIssueComments, options.ownLogins);
  return {
    repo: options.repo,
    counter,
    rateLimits: () => tracker.snapshot(),
    ...repositoryOps(t),
    ...dependencyReviewOps(t),
    ...labels,
    ...issues,
    ...comments,
    ...momentOps(t, {
      setLabels: labels.setLabels,
      updateComment: comments.updateComment,
      createComment: comments.createComment,
      updateIssue: issues.updateIssue,
    }),
    ...milestoneOps(t),
    ...pullOps(t),
    ...pullFeedbackOps(t),
    ...answerReviewFeedbackOps(t),
    ...taskReadOps(t),
    ...repositoryStatusOps(t),
    ...branchCommitOps(t),
    ci: ciReadOps(t),
    stack: pullStackOps(t),
    ...attachmentOps(options.octokit),
  };
}
