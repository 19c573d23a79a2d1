import { z } from "zod";
import { commentSchema } from "./schemas.ts";
import type { Transport } from "./transport.ts";
import type { Comment, GitHubGateway } from "./types.ts";

type CommentOps = Pick<
  GitHubGateway,
  "createComment" | "updateComment" | "findCommentByMarker" | "upsertComment" | "addReaction"
>;

/** The hidden first line that keys a sticky comment, e.g. `<!-- locus:status -->`. */
export function markerLine(marker: string): string {
  if (!/^[\w:.-]+$/.test(marker)) {
    throw new Error(`Comment marker "${marker}" must be letters, digits and : . _ - only`);
  }
  return `<!-- ${marker} -->`;
}

// GitHub may hand a body back with CRLF line ends; they are the same text.
function sameText(a: string, b: string): boolean {
  return a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n");
}

export function commentOps(t: Transport, listIssueComments: GitHubGateway["listIssueComments"]): CommentOps {
  const createComment = (issue: number, body: string): Promise<Comment> =>
    t.rest(
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { issue_number: issue, body },
      commentSchema,
    );

  const updateComment = (commentId: number, body: string): Promise<Comment> =>
    t.rest(
      "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
      { comment_id: commentId, body },
      commentSchema,
    );

  async function findCommentByMarker(issue: number, marker: string): Promise<Comment | null> {
    const line = markerLine(marker);
    // Only a comment that starts with the marker counts: someone quoting a
    // Locus comment ("> <!-- ... -->") must not become the sticky comment.
    const comments = await listIssueComments(issue);
    return comments.find((c) => c.body.startsWith(line)) ?? null;
  }

  return {
    createComment,
    updateComment,
    findCommentByMarker,
    async upsertComment(issue, marker, body) {
      const text = `${markerLine(marker)}\n${body}`;
      const existing = await findCommentByMarker(issue, marker);
      if (!existing) return { action: "created", comment: await createComment(issue, text) };
      if (sameText(existing.body, text)) return { action: "unchanged", comment: existing };
      return { action: "updated", comment: await updateComment(existing.id, text) };
    },
    async addReaction(target, content) {
      const [route, params] =
        "issue" in target
          ? ["POST /repos/{owner}/{repo}/issues/{issue_number}/reactions", { issue_number: target.issue }]
          : "commentId" in target
            ? [
                "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
                { comment_id: target.commentId },
              ]
            : [
                "POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions",
                { comment_id: target.reviewCommentId },
              ];
      await t.rest(route, { ...params, content }, z.unknown());
    },
  };
}
