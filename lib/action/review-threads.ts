/**
 * Review threads from the REST review comments: a thread is its first comment
 * and the replies to it. A thread counts as settled once Locus has the last
 * word in it — Locus replies in every thread it addressed, so a reviewer who
 * answers again reopens it.
 */
import type { ReviewComment } from "../github/index.ts";
import type { ReviewThread } from "../prompt/feedback.ts";

export function reviewThreads(
  comments: readonly ReviewComment[],
  selfLogins: readonly string[],
): ReviewThread[] {
  const self = new Set(selfLogins.map((login) => login.toLowerCase()));
  const roots = comments.filter((comment) => comment.inReplyToId === null);
  return roots.map((root) => {
    const thread = comments
      .filter((comment) => comment.id === root.id || comment.inReplyToId === root.id)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
    const last = thread[thread.length - 1];
    return {
      id: String(root.id),
      isResolved: last !== undefined && self.has(last.author.toLowerCase()),
      path: root.path,
      line: root.line,
      diffHunk: root.diffHunk,
      comments: thread.map((comment) => ({
        author: comment.author,
        body: comment.body,
        createdAt: comment.createdAt,
        updatedAt: comment.updatedAt,
      })),
    };
  });
}
