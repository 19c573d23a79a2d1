/**
 * An issue as the prompt sees it: only what existed when the run started (an
 * edit made later must not smuggle in instructions) and without Locus's own
 * comments, which are bookkeeping, not requirements.
 */
import type { Comment, IssueWithComments } from "../github/index.ts";
import type { PromptIssue } from "../prompt/task-prompt.ts";

export function isLocusComment(body: string): boolean {
  return body.trimStart().startsWith("<!-- locus:");
}

function existedAt(comment: Comment, at: Date): boolean {
  const limit = at.getTime();
  return Date.parse(comment.createdAt) <= limit && Date.parse(comment.updatedAt) <= limit;
}

export function promptIssue(issue: IssueWithComments, triggeredAt: Date): PromptIssue {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    comments: issue.comments
      .filter((comment) => !isLocusComment(comment.body) && existedAt(comment, triggeredAt))
      .map((comment) => ({ author: comment.author, body: comment.body })),
  };
}
