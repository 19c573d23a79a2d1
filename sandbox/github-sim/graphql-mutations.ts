import { GraphQLError } from "graphql";
import type { SimCore } from "./core.ts";
import {
  commentNode,
  reviewCommentNode,
  reviewThreadNode,
  type GraphqlContext,
} from "./graphql-resolvers.ts";
import type { Issue, IssueComment, Repo, Review, ReviewComment, User } from "./model.ts";
import { commentJson, issueJson } from "./serialize-issue.ts";
import { pullJson, reviewCommentJson, type PullIssue } from "./serialize-pull.ts";
import { isoNow } from "./model.ts";
import { permissionOf } from "./store.ts";

// The mutations Locus sends, with GitHub's inputs, payloads, permission rules and webhooks. Each
// takes `{ input }` and answers its payload type; several in one document run in order.

type Args = Record<string, unknown>;

export function inputOf(args: Args): Args {
  return typeof args.input === "object" && args.input !== null ? (args.input as Args) : {};
}

export function stringField(input: Args, name: string): string {
  const value = input[name];
  return typeof value === "string" ? value : "";
}

export function unresolvable(id: string): GraphQLError {
  return new GraphQLError(`Could not resolve to a node with the global id of '${id}'`, {
    extensions: { type: "NOT_FOUND" },
  });
}

export function forbidden(login: string, mutation: string): GraphQLError {
  return new GraphQLError(`${login} does not have the correct permissions to execute \`${mutation}\``, {
    extensions: { type: "FORBIDDEN" },
  });
}

function blank(field: string): GraphQLError {
  return new GraphQLError(`${field} can't be blank`, { extensions: { type: "UNPROCESSABLE" } });
}

// Node ids are `<prefix>_<base64url("sim:<database id>")>` (serialize-user.ts).
export function databaseIdOf(id: string, prefix: string): number | null {
  if (!id.startsWith(`${prefix}_`)) return null;
  const match = /^sim:(\d+)$/.exec(Buffer.from(id.slice(prefix.length + 1), "base64url").toString("utf8"));
  return match ? Number(match[1]) : null;
}

/** The thread's first comment and its repository, if the viewer can see them. */
export function findThread(
  core: SimCore,
  viewer: User,
  id: string,
): { repo: Repo; root: ReviewComment; pull: PullIssue } {
  const databaseId = databaseIdOf(id, "PRRT");
  for (const repo of core.store.repos.values()) {
    if (permissionOf(core.store, repo, viewer.login) === "none") continue;
    const root = repo.reviewComments.find(
      (comment) => comment.id === databaseId && comment.inReplyTo === null,
    );
    const pull = root ? repo.issues.get(root.pullNumber) : undefined;
    if (root && pull?.pull) return { repo, root, pull: { ...pull, pull: pull.pull } };
  }
  throw unresolvable(id);
}

/** The issue or pull request a node id names, if the viewer can see it. */
export function findSubject(core: SimCore, viewer: User, id: string): { repo: Repo; issue: Issue } {
  const databaseId = databaseIdOf(id, "PR") ?? databaseIdOf(id, "I");
  for (const repo of core.store.repos.values()) {
    if (permissionOf(core.store, repo, viewer.login) === "none") continue;
    const issue = [...repo.issues.values()].find((candidate) => candidate.id === databaseId);
    if (issue) return { repo, issue };
  }
  throw unresolvable(id);
}

const WRITERS = ["admin", "maintain", "write"];

export function mutationRoot(context: GraphqlContext): Record<string, unknown> {
  const { core, viewer } = context;
  const emit = (repo: Repo, event: string, payload: Record<string, unknown>) =>
    core.emit(event, payload, { repo, sender: viewer });

  return {
    // A reply lands in the thread as a one-comment review, as a REST reply does.
    addPullRequestReviewThreadReply: async (args: Args) => {
      const input = inputOf(args);
      const body = stringField(input, "body");
      const { repo, root, pull } = findThread(core, viewer, stringField(input, "pullRequestReviewThreadId"));
      if (body.trim() === "") throw blank("Body");
      const at = isoNow(core.store);
      const review: Review = {
        id: core.store.nextId(),
        pullNumber: root.pullNumber,
        author: viewer.login,
        body: "",
        state: "COMMENTED",
        commitId: root.commitId,
        submittedAt: at,
      };
      repo.reviews.push(review);
      const comment: ReviewComment = {
        id: core.store.nextId(),
        reviewId: review.id,
        pullNumber: root.pullNumber,
        path: root.path,
        line: root.line,
        side: root.side,
        position: root.position,
        body,
        author: viewer.login,
        commitId: root.commitId,
        diffHunk: root.diffHunk,
        inReplyTo: root.id,
        resolved: false,
        createdAt: at,
        updatedAt: at,
      };
      repo.reviewComments.push(comment);
      emit(repo, "pull_request_review_comment", {
        action: "created",
        comment: reviewCommentJson(core, repo, comment),
        pull_request: await pullJson(core, repo, pull, false),
      });
      return {
        clientMutationId: input.clientMutationId ?? null,
        comment: reviewCommentNode(core, repo, comment),
      };
    },

    // Whoever may push, and the PR's author, may resolve its threads.
    resolveReviewThread: async (args: Args) => {
      const input = inputOf(args);
      const { repo, root, pull } = findThread(core, viewer, stringField(input, "threadId"));
      const writer = WRITERS.includes(permissionOf(core.store, repo, viewer.login));
      if (!writer && pull.author.toLowerCase() !== viewer.login.toLowerCase())
        throw forbidden(viewer.login, "ResolveReviewThread");
      if (!root.resolved) {
        root.resolved = true;
        root.resolvedBy = viewer.login;
        emit(repo, "pull_request_review_thread", {
          action: "resolved",
          thread: {
            node_id: reviewThreadNode(core, repo, pull, root).id,
            comments: repo.reviewComments
              .filter((comment) => comment.id === root.id || comment.inReplyTo === root.id)
              .map((comment) => reviewCommentJson(core, repo, comment)),
          },
          pull_request: await pullJson(core, repo, pull, false),
        });
      }
      return {
        clientMutationId: input.clientMutationId ?? null,
        thread: reviewThreadNode(core, repo, pull, root),
      };
    },

    addComment: (args: Args) => {
      const input = inputOf(args);
      const body = stringField(input, "body");
      const { repo, issue } = findSubject(core, viewer, stringField(input, "subjectId"));
      if (body.trim() === "") throw blank("Body");
      const at = isoNow(core.store);
      const comment: IssueComment = {
        id: core.store.nextId(),
        issueNumber: issue.number,
        body,
        author: viewer.login,
        createdAt: at,
        updatedAt: at,
      };
      repo.comments.push(comment);
      issue.updatedAt = at;
      emit(repo, "issue_comment", {
        action: "created",
        issue: issueJson(core, repo, issue),
        comment: commentJson(core, repo, comment),
      });
      const node = commentNode(core, repo, comment);
      return {
        clientMutationId: input.clientMutationId ?? null,
        commentEdge: { cursor: Buffer.from(`cursor:v2:${comment.id}`).toString("base64"), node },
        subject: { __typename: issue.pull ? "PullRequest" : "Issue", id: stringField(input, "subjectId") },
        timelineEdge: null,
      };
    },
  };
}
