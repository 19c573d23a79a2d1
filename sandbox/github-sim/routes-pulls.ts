import type { RequestContext, Route, RouteResult } from "./core.ts";
import { closingIssues } from "./closing-keywords.ts";
import { diffHunkFor, parseDiff } from "./diff.ts";
import type { FilePatch } from "./diff.ts";
import {
  branchSha,
  commitsBetween,
  createMergeCommit,
  rawChanges,
  resolveCommit,
  threeDotDiff,
  updateRef,
} from "./git.ts";
import { HttpError, notFound, unprocessable, validationFailed } from "./http-error.ts";
import { applyState, emitIssueEvent } from "./issue-mutations.ts";
import { rebaseCommits } from "./merge-rebase.ts";
import type { DiffSide, Issue, Repo, Review, ReviewComment, ReviewState } from "./model.ts";
import {
  actorUser,
  bodyObject,
  emitRepoEvent,
  intParam,
  now,
  optionalString,
  paged,
  pagedAsync,
  requirePermission,
  requireRepo,
  requiredString,
  sinceFilter,
} from "./route-helpers.ts";
import { updateIssueFields } from "./routes-issues.ts";
import {
  commitJson,
  diffEntryJson,
  pullHeadSha,
  pullJson,
  reviewCommentJson,
  reviewJson,
} from "./serialize-pull.ts";
import type { PullIssue } from "./serialize-pull.ts";

function asPull(issue: Issue): PullIssue | null {
  return issue.pull ? { ...issue, pull: issue.pull } : null;
}

function requirePull(ctx: RequestContext, repo: Repo): PullIssue {
  const issue = repo.issues.get(intParam(ctx, "pull_number"));
  const pull = issue ? asPull(issue) : null;
  if (!pull) throw notFound();
  return pull;
}

function pullIssue(repo: Repo, pull: PullIssue): Issue {
  const issue = repo.issues.get(pull.number);
  if (!issue) throw notFound();
  return issue;
}

function listPulls(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const state = ctx.query.get("state") ?? "open";
  const head = ctx.query.get("head");
  const base = ctx.query.get("base");
  const direction = ctx.query.get("direction") ?? "desc";
  const sort = ctx.query.get("sort") ?? "created";
  const pulls = [...repo.issues.values()]
    .map(asPull)
    .filter((pull): pull is PullIssue => pull !== null)
    .filter((pull) => {
      if (state !== "all" && pull.state !== state) return false;
      if (base && pull.pull.base !== base) return false;
      if (head) {
        const [owner, branch] = head.includes(":") ? head.split(":", 2) : [repo.owner, head];
        if (owner?.toLowerCase() !== repo.owner.toLowerCase() || pull.pull.head !== branch) return false;
      }
      return true;
    });
  pulls.sort((a, b) => {
    const order =
      sort === "updated"
        ? a.updatedAt.localeCompare(b.updatedAt) || a.number - b.number
        : a.number - b.number;
    return direction === "asc" ? order : -order;
  });
  return pagedAsync(ctx, pulls, (pull) => pullJson(ctx.core, repo, pull, false));
}

async function pullDiff(repo: Repo, pull: PullIssue): Promise<string> {
  const head = await pullHeadSha(repo, pull);
  const base = (await branchSha(repo.gitDir, pull.pull.base)) ?? "";
  return head && base ? threeDotDiff(repo.gitDir, base, head) : "";
}

async function getPull(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const accept = String(ctx.headers.accept ?? "");
  if (accept.includes("diff")) {
    return {
      status: 200,
      text: await pullDiff(repo, pull),
      contentType: "application/vnd.github.diff; charset=utf-8",
    };
  }
  return { status: 200, body: await pullJson(ctx.core, repo, pull, true) };
}

function headBranchName(repo: Repo, head: string): string {
  if (!head.includes(":")) return head;
  const [owner = "", branch = ""] = head.split(":", 2);
  if (owner.toLowerCase() !== repo.owner.toLowerCase())
    throw validationFailed([{ resource: "PullRequest", field: "head", code: "invalid" }]);
  return branch;
}

async function createPull(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const user = actorUser(ctx);
  const body = bodyObject(ctx);
  const title = requiredString(body, "title", "PullRequest");
  const head = headBranchName(repo, requiredString(body, "head", "PullRequest"));
  const base = requiredString(body, "base", "PullRequest");
  const headSha = await branchSha(repo.gitDir, head);
  const baseSha = await branchSha(repo.gitDir, base);
  const errors = [];
  if (!headSha) errors.push({ resource: "PullRequest", field: "head", code: "invalid" } as const);
  if (!baseSha) errors.push({ resource: "PullRequest", field: "base", code: "invalid" } as const);
  if (errors.length > 0 || !headSha || !baseSha) throw validationFailed(errors);
  const duplicate = [...repo.issues.values()].find(
    (issue) => issue.pull && issue.state === "open" && issue.pull.head === head && issue.pull.base === base,
  );
  if (duplicate) {
    throw validationFailed([
      {
        resource: "PullRequest",
        field: "",
        code: "custom",
        message: `A pull request already exists for ${repo.owner}:${head}.`,
      },
    ]);
  }
  if ((await commitsBetween(repo.gitDir, baseSha, headSha)).length === 0) {
    throw validationFailed([
      {
        resource: "PullRequest",
        field: "",
        code: "custom",
        message: `No commits between ${base} and ${head}`,
      },
    ]);
  }
  const at = now(ctx);
  const issue: Issue = {
    id: ctx.core.store.nextId(),
    number: repo.nextIssueNumber,
    title,
    body: optionalString(body, "body", "PullRequest") ?? null,
    state: "open",
    stateReason: null,
    author: user.login,
    labelIds: [],
    milestoneId: null,
    assignees: [],
    locked: false,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    closedBy: null,
    pull: {
      head,
      base,
      draft: body.draft === true,
      merged: false,
      mergedAt: null,
      mergedBy: null,
      mergeCommitSha: null,
      headShaAtClose: null,
      maintainerCanModify: body.maintainer_can_modify !== false,
    },
  };
  repo.nextIssueNumber += 1;
  repo.issues.set(issue.number, issue);
  await emitIssueEvent(ctx, repo, issue, "opened");
  const pull = asPull(issue);
  if (!pull) throw notFound();
  return {
    status: 201,
    body: await pullJson(ctx.core, repo, pull, true),
    headers: { location: `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}/pulls/${issue.number}` },
  };
}

async function updatePull(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const issue = pullIssue(repo, pull);
  if (issue.author.toLowerCase() !== actorUser(ctx).login.toLowerCase())
    requirePermission(ctx, repo, "write");
  const body = bodyObject(ctx);
  const base = optionalString(body, "base", "PullRequest");
  if (base !== undefined && issue.pull && base !== issue.pull.base) {
    if (!(await branchSha(repo.gitDir, base)))
      throw validationFailed([{ resource: "PullRequest", field: "base", code: "invalid" }]);
    issue.pull.base = base;
    issue.updatedAt = now(ctx);
  }
  if (typeof body.maintainer_can_modify === "boolean" && issue.pull)
    issue.pull.maintainerCanModify = body.maintainer_can_modify;
  await updateIssueFields(ctx, repo, issue, { title: body.title, body: body.body, state: body.state });
  const updated = asPull(issue);
  if (!updated) throw notFound();
  return { status: 200, body: await pullJson(ctx.core, repo, updated, true) };
}

function notMergeable(message: string): HttpError {
  return new HttpError(405, {
    message,
    documentation_url: "https://docs.github.com/rest/pulls/pulls#merge-a-pull-request",
    status: "405",
  });
}

async function closeLinkedIssues(ctx: RequestContext, repo: Repo, pull: Issue): Promise<void> {
  for (const linked of closingIssues(repo, pull)) {
    if (linked.state === "open") await applyState(ctx, repo, linked, "closed", "completed");
  }
}

async function mergePull(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const pull = requirePull(ctx, repo);
  const issue = pullIssue(repo, pull);
  const body = bodyObject(ctx);
  const method = optionalString(body, "merge_method", "PullRequest") ?? "merge";
  if (method !== "merge" && method !== "squash" && method !== "rebase")
    throw validationFailed([{ resource: "PullRequest", field: "merge_method", code: "invalid" }]);
  if (issue.state !== "open" || !issue.pull) throw notMergeable("Pull Request is not mergeable");
  if (issue.pull.draft) throw notMergeable("Pull Request is still a draft");
  const headSha = await branchSha(repo.gitDir, issue.pull.head);
  const baseSha = await branchSha(repo.gitDir, issue.pull.base);
  if (!headSha || !baseSha) throw notMergeable("Pull Request is not mergeable");
  const expected = optionalString(body, "sha", "PullRequest");
  if (expected !== undefined && expected !== headSha) {
    throw new HttpError(409, {
      message: "Head branch was modified. Review and try the merge again.",
      documentation_url: "https://docs.github.com/rest/pulls/pulls#merge-a-pull-request",
      status: "409",
    });
  }
  const user = actorUser(ctx);
  const title =
    optionalString(body, "commit_title", "PullRequest") ??
    (method === "squash"
      ? `${issue.title} (#${issue.number})`
      : `Merge pull request #${issue.number} from ${repo.owner}/${issue.pull.head}`);
  const extra =
    optionalString(body, "commit_message", "PullRequest") ?? (method === "squash" ? "" : issue.title);
  const message = extra.length > 0 ? `${title}\n\n${extra}` : title;
  const identity = { name: user.login, email: `${user.id}+${user.login}@users.noreply.github.com` };
  const sha =
    method === "rebase"
      ? await rebaseCommits(repo.gitDir, baseSha, headSha, identity, now(ctx))
      : await createMergeCommit(repo.gitDir, baseSha, headSha, method, message, identity, now(ctx));
  if (!sha) throw notMergeable("Pull Request is not mergeable");
  await updateRef(repo.gitDir, `refs/heads/${issue.pull.base}`, sha);
  const at = now(ctx);
  issue.pull.merged = true;
  issue.pull.mergedAt = at;
  issue.pull.mergedBy = user.login;
  issue.pull.mergeCommitSha = sha;
  issue.pull.headShaAtClose = headSha;
  await applyState(ctx, repo, issue, "closed", null);
  await closeLinkedIssues(ctx, repo, issue);
  return { status: 200, body: { sha, merged: true, message: "Pull Request successfully merged" } };
}

async function listPullCommits(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const head = await pullHeadSha(repo, pull);
  const base =
    pull.pull.merged && pull.pull.mergeCommitSha
      ? `${pull.pull.mergeCommitSha}^1`
      : await branchSha(repo.gitDir, pull.pull.base);
  const commits = head && base ? await commitsBetween(repo.gitDir, base, head) : [];
  return paged(ctx, commits, (commit) => commitJson(ctx.core, repo, commit));
}

async function pullPatches(
  repo: Repo,
  pull: PullIssue,
  at?: string,
): Promise<{ files: FilePatch[]; head: string; base: string }> {
  const head = at ?? (await pullHeadSha(repo, pull));
  const base =
    pull.pull.merged && pull.pull.mergeCommitSha
      ? `${pull.pull.mergeCommitSha}^1`
      : ((await branchSha(repo.gitDir, pull.pull.base)) ?? "");
  const files = head && base ? parseDiff(await threeDotDiff(repo.gitDir, base, head)) : [];
  return { files, head, base };
}

async function listPullFiles(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const { files, head, base } = await pullPatches(repo, pull);
  const changes = head && base ? await rawChanges(repo.gitDir, base, head) : [];
  return paged(ctx, changes, (change) =>
    diffEntryJson(
      ctx.core,
      repo,
      change,
      files.find((file) => file.path === change.path),
      head,
    ),
  );
}

interface DraftComment {
  path: string;
  line: number;
  side: DiffSide;
  position: number;
  body: string;
  diffHunk: string;
}

function reviewDraftComments(body: Record<string, unknown>, files: FilePatch[]): DraftComment[] {
  const list = body.comments;
  if (list === undefined) return [];
  if (!Array.isArray(list))
    throw validationFailed([{ resource: "PullRequestReview", field: "comments", code: "invalid" }]);
  return list.map((raw: unknown) => {
    const item = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const path = typeof item.path === "string" ? item.path : "";
    const line = typeof item.line === "number" ? item.line : typeof item.position === "number" ? -1 : 0;
    const side: DiffSide = item.side === "LEFT" ? "LEFT" : "RIGHT";
    const file = files.find((candidate) => candidate.path === path);
    if (!file) throw unprocessable(["Path could not be resolved"]);
    const anchor = diffHunkFor(file, side, line);
    if (anchor === null) throw unprocessable(["Line could not be resolved"]);
    return {
      path,
      line,
      side,
      body: typeof item.body === "string" ? item.body : "",
      diffHunk: anchor.hunk,
      position: anchor.position,
    };
  });
}

/**
 * A review's `commit_id`: GitHub anchors its line comments to that commit's diff, so a review
 * written against an older head stays where its author put it; a SHA that names no commit is a 422.
 */
async function reviewCommit(repo: Repo, body: Record<string, unknown>): Promise<string | undefined> {
  const commitId = optionalString(body, "commit_id", "PullRequestReview");
  if (commitId === undefined) return undefined;
  const sha = /^[0-9a-f]{40}$/i.test(commitId) ? await resolveCommit(repo.gitDir, commitId) : null;
  if (sha === null) throw unprocessable([`No commit found for SHA: ${commitId}`]);
  return sha;
}

const reviewStates: Record<string, ReviewState> = {
  COMMENT: "COMMENTED",
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
};

async function createReview(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const user = actorUser(ctx);
  const body = bodyObject(ctx);
  const event = optionalString(body, "event", "PullRequestReview") ?? "";
  const state = reviewStates[event];
  if (!state) throw unprocessable([`Unsupported review event "${event}": pending reviews are not simulated`]);
  const self = pull.author.toLowerCase() === user.login.toLowerCase();
  if (self && state === "APPROVED") throw unprocessable(["Can not approve your own pull request"]);
  if (self && state === "CHANGES_REQUESTED")
    throw unprocessable(["Can not request changes on your own pull request"]);
  const text = optionalString(body, "body", "PullRequestReview") ?? "";
  if (state === "CHANGES_REQUESTED" && text.length === 0)
    throw unprocessable(["Body is required for REQUEST_CHANGES"]);
  const { files, head } = await pullPatches(repo, pull, await reviewCommit(repo, body));
  const drafts = reviewDraftComments(body, files);
  const at = now(ctx);
  const review: Review = {
    id: ctx.core.store.nextId(),
    pullNumber: pull.number,
    author: user.login,
    body: text,
    state,
    commitId: head,
    submittedAt: at,
  };
  repo.reviews.push(review);
  const comments = drafts.map((draft): ReviewComment => ({
    id: ctx.core.store.nextId(),
    reviewId: review.id,
    pullNumber: pull.number,
    path: draft.path,
    line: draft.line,
    side: draft.side,
    position: draft.position,
    body: draft.body,
    author: user.login,
    commitId: review.commitId,
    diffHunk: draft.diffHunk,
    inReplyTo: null,
    resolved: false,
    createdAt: at,
    updatedAt: at,
  }));
  repo.reviewComments.push(...comments);
  const pullRequest = await pullJson(ctx.core, repo, pull, false);
  for (const comment of comments) {
    emitRepoEvent(ctx, repo, "pull_request_review_comment", {
      action: "created",
      comment: reviewCommentJson(ctx.core, repo, comment),
      pull_request: pullRequest,
    });
  }
  // Webhook payloads spell review states in lower case, unlike the REST API.
  emitRepoEvent(ctx, repo, "pull_request_review", {
    action: "submitted",
    review: { ...reviewJson(ctx.core, repo, review), state: review.state.toLowerCase() },
    pull_request: pullRequest,
  });
  return { status: 200, body: reviewJson(ctx.core, repo, review) };
}

function listReviews(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  return paged(
    ctx,
    repo.reviews.filter((review) => review.pullNumber === pull.number),
    (review) => reviewJson(ctx.core, repo, review),
  );
}

function getReview(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const id = intParam(ctx, "review_id");
  const review = repo.reviews.find(
    (candidate) => candidate.id === id && candidate.pullNumber === pull.number,
  );
  if (!review) throw notFound();
  return { status: 200, body: reviewJson(ctx.core, repo, review) };
}

function sortedReviewComments(ctx: RequestContext, comments: ReviewComment[]): ReviewComment[] {
  const since = sinceFilter(ctx);
  const filtered = comments.filter((comment) => since(comment.updatedAt));
  const key = ctx.query.get("sort") === "updated" ? "updatedAt" : "createdAt";
  filtered.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id));
  return ctx.query.get("direction") === "desc" ? filtered.reverse() : filtered;
}

function listReviewComments(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const comments = sortedReviewComments(
    ctx,
    repo.reviewComments.filter((comment) => comment.pullNumber === pull.number),
  );
  return paged(ctx, comments, (comment) => reviewCommentJson(ctx.core, repo, comment));
}

function listRepoReviewComments(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  return paged(ctx, sortedReviewComments(ctx, [...repo.reviewComments]), (comment) =>
    reviewCommentJson(ctx.core, repo, comment),
  );
}

// A standalone review comment is its own single-comment COMMENTED review, as on GitHub; replies join the parent's thread.
async function createReviewComment(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const pull = requirePull(ctx, repo);
  const user = actorUser(ctx);
  const body = bodyObject(ctx);
  const text = requiredString(body, "body", "PullRequestReviewComment");
  const replyTo = typeof body.in_reply_to === "number" ? body.in_reply_to : null;
  const parent =
    replyTo === null
      ? undefined
      : repo.reviewComments.find((comment) => comment.id === replyTo && comment.pullNumber === pull.number);
  if (replyTo !== null && !parent) throw notFound();
  const { files, head } = await pullPatches(repo, pull);
  const [draft] = parent
    ? [
        {
          path: parent.path,
          line: parent.line,
          side: parent.side,
          body: text,
          diffHunk: parent.diffHunk,
          position: parent.position,
        },
      ]
    : reviewDraftComments(
        { comments: [{ path: body.path, line: body.line, side: body.side, body: text }] },
        files,
      );
  if (!draft)
    throw validationFailed([{ resource: "PullRequestReviewComment", field: "line", code: "missing_field" }]);
  const at = now(ctx);
  const review: Review = {
    id: ctx.core.store.nextId(),
    pullNumber: pull.number,
    author: user.login,
    body: "",
    state: "COMMENTED",
    commitId: optionalString(body, "commit_id", "PullRequestReviewComment") ?? head,
    submittedAt: at,
  };
  repo.reviews.push(review);
  const comment: ReviewComment = {
    id: ctx.core.store.nextId(),
    reviewId: review.id,
    pullNumber: pull.number,
    ...draft,
    author: user.login,
    commitId: review.commitId,
    inReplyTo: parent?.id ?? null,
    resolved: false,
    createdAt: at,
    updatedAt: at,
  };
  repo.reviewComments.push(comment);
  emitRepoEvent(ctx, repo, "pull_request_review_comment", {
    action: "created",
    comment: reviewCommentJson(ctx.core, repo, comment),
    pull_request: await pullJson(ctx.core, repo, pull, false),
  });
  return { status: 201, body: reviewCommentJson(ctx.core, repo, comment) };
}

export const pullRoutes: Route[] = [
  { method: "GET", template: "/repos/{owner}/{repo}/pulls", auth: "token", handler: listPulls },
  { method: "POST", template: "/repos/{owner}/{repo}/pulls", auth: "token", handler: createPull },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/comments",
    auth: "token",
    handler: listRepoReviewComments,
  },
  { method: "GET", template: "/repos/{owner}/{repo}/pulls/{pull_number}", auth: "token", handler: getPull },
  {
    method: "PATCH",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}",
    auth: "token",
    handler: updatePull,
  },
  {
    method: "PUT",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
    auth: "token",
    handler: mergePull,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
    auth: "token",
    handler: (ctx) => {
      const pull = requirePull(ctx, requireRepo(ctx));
      if (!pull.pull.merged) throw notFound();
      return { status: 204 };
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/commits",
    auth: "token",
    handler: listPullCommits,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/files",
    auth: "token",
    handler: listPullFiles,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    auth: "token",
    handler: listReviews,
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    auth: "token",
    handler: createReview,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}",
    auth: "token",
    handler: getReview,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/comments",
    auth: "token",
    handler: listReviewComments,
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/pulls/{pull_number}/comments",
    auth: "token",
    handler: createReviewComment,
  },
];
