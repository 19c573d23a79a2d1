import type { RequestContext, Route, RouteResult } from "./core.ts";
import { recordEdit } from "./content-edits.ts";
import { notFound, validationFailed } from "./http-error.ts";
import type { IssueComment, Reaction, ReactionContent, Repo } from "./model.ts";
import {
  actorUser,
  bodyObject,
  emitRepoEvent,
  intParam,
  now,
  paged,
  requireIssue,
  requirePermission,
  requireRepo,
  requiredString,
  sinceFilter,
} from "./route-helpers.ts";
import { commentJson, issueJson, reactionJson } from "./serialize-issue.ts";

function requireComment(ctx: RequestContext, repo: Repo): IssueComment {
  const id = intParam(ctx, "comment_id");
  const comment = repo.comments.find((candidate) => candidate.id === id);
  if (!comment) throw notFound();
  return comment;
}

function emitCommentEvent(
  ctx: RequestContext,
  repo: Repo,
  comment: IssueComment,
  action: string,
  extras: Record<string, unknown> = {},
): void {
  const issue = repo.issues.get(comment.issueNumber);
  if (!issue) return;
  emitRepoEvent(ctx, repo, "issue_comment", {
    action,
    issue: issueJson(ctx.core, repo, issue),
    comment: commentJson(ctx.core, repo, comment),
    ...extras,
  });
}

function sortedComments(ctx: RequestContext, comments: IssueComment[]): IssueComment[] {
  const since = sinceFilter(ctx);
  const filtered = comments.filter((comment) => since(comment.updatedAt));
  const key = ctx.query.get("sort") === "updated" ? "updatedAt" : "createdAt";
  filtered.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id));
  return ctx.query.get("direction") === "desc" ? filtered.reverse() : filtered;
}

function listIssueComments(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const issue = requireIssue(ctx, repo);
  const comments = sortedComments(
    ctx,
    repo.comments.filter((comment) => comment.issueNumber === issue.number),
  );
  return paged(ctx, comments, (comment) => commentJson(ctx.core, repo, comment));
}

function listRepoComments(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  return paged(ctx, sortedComments(ctx, [...repo.comments]), (comment) =>
    commentJson(ctx.core, repo, comment),
  );
}

function createComment(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const issue = requireIssue(ctx, repo);
  const text = requiredString(bodyObject(ctx), "body", "IssueComment");
  const at = now(ctx);
  const comment: IssueComment = {
    id: ctx.core.store.nextId(),
    issueNumber: issue.number,
    body: text,
    author: actorUser(ctx).login,
    createdAt: at,
    updatedAt: at,
  };
  repo.comments.push(comment);
  issue.updatedAt = at;
  emitCommentEvent(ctx, repo, comment, "created");
  return {
    status: 201,
    body: commentJson(ctx.core, repo, comment),
    headers: {
      location: `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}/issues/comments/${comment.id}`,
    },
  };
}

function requireOwnOrTriage(ctx: RequestContext, repo: Repo, author: string): void {
  if (author.toLowerCase() !== actorUser(ctx).login.toLowerCase()) requirePermission(ctx, repo, "triage");
}

function updateComment(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const comment = requireComment(ctx, repo);
  requireOwnOrTriage(ctx, repo, comment.author);
  const text = requiredString(bodyObject(ctx), "body", "IssueComment");
  const previous = comment.body;
  if (text !== previous) recordEdit(comment, previous, text, now(ctx), actorUser(ctx).login);
  comment.body = text;
  comment.updatedAt = now(ctx);
  emitCommentEvent(ctx, repo, comment, "edited", { changes: { body: { from: previous } } });
  return { status: 200, body: commentJson(ctx.core, repo, comment) };
}

function deleteComment(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const comment = requireComment(ctx, repo);
  requireOwnOrTriage(ctx, repo, comment.author);
  repo.comments = repo.comments.filter((candidate) => candidate.id !== comment.id);
  emitCommentEvent(ctx, repo, comment, "deleted");
  return { status: 204 };
}

const reactionContents: ReactionContent[] = [
  "+1",
  "-1",
  "laugh",
  "confused",
  "heart",
  "hooray",
  "rocket",
  "eyes",
];

function sameSubject(a: Reaction["subject"], b: Reaction["subject"]): boolean {
  if (a.kind === "issue" && b.kind === "issue") return a.number === b.number;
  if (a.kind === "comment" && b.kind === "comment") return a.id === b.id;
  return false;
}

function subjectOf(ctx: RequestContext, repo: Repo): Reaction["subject"] {
  if (ctx.params.comment_id !== undefined) return { kind: "comment", id: requireComment(ctx, repo).id };
  return { kind: "issue", number: requireIssue(ctx, repo).number };
}

function listReactions(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const subject = subjectOf(ctx, repo);
  const content = ctx.query.get("content");
  const reactions = repo.reactions.filter(
    (reaction) => sameSubject(reaction.subject, subject) && (!content || reaction.content === content),
  );
  return paged(ctx, reactions, (reaction) => reactionJson(ctx.core, reaction));
}

// Reacting twice with the same content returns the existing reaction with 200, as GitHub does.
function createReaction(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const subject = subjectOf(ctx, repo);
  const content = bodyObject(ctx).content;
  const valid = reactionContents.find((candidate) => candidate === content);
  if (!valid) throw validationFailed([{ resource: "Reaction", field: "content", code: "invalid" }]);
  const user = actorUser(ctx).login;
  const existing = repo.reactions.find(
    (reaction) =>
      sameSubject(reaction.subject, subject) && reaction.content === valid && reaction.user === user,
  );
  if (existing) return { status: 200, body: reactionJson(ctx.core, existing) };
  const reaction: Reaction = {
    id: ctx.core.store.nextId(),
    subject,
    content: valid,
    user,
    createdAt: now(ctx),
  };
  repo.reactions.push(reaction);
  return { status: 201, body: reactionJson(ctx.core, reaction) };
}

function deleteReaction(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const subject = subjectOf(ctx, repo);
  const id = intParam(ctx, "reaction_id");
  const reaction = repo.reactions.find(
    (candidate) => candidate.id === id && sameSubject(candidate.subject, subject),
  );
  if (!reaction) throw notFound();
  repo.reactions = repo.reactions.filter((candidate) => candidate.id !== id);
  return { status: 204 };
}

export const commentRoutes: Route[] = [
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/comments",
    auth: "token",
    handler: listRepoComments,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
    auth: "token",
    handler: listIssueComments,
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
    auth: "token",
    handler: createComment,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      return { status: 200, body: commentJson(ctx.core, repo, requireComment(ctx, repo)) };
    },
  },
  {
    method: "PATCH",
    template: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
    auth: "token",
    handler: updateComment,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
    auth: "token",
    handler: deleteComment,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
    auth: "token",
    handler: listReactions,
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
    auth: "token",
    handler: createReaction,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}",
    auth: "token",
    handler: deleteReaction,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/reactions",
    auth: "token",
    handler: listReactions,
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/reactions",
    auth: "token",
    handler: createReaction,
  },
  {
    method: "DELETE",
    template: "/repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}",
    auth: "token",
    handler: deleteReaction,
  },
];
