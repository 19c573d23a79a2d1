/**
 * An issue as the prompt sees it: only text as it stood when the run was
 * triggered (an edit made later must not smuggle in instructions; with the
 * edit history the earlier text is recovered, without it the text is left
 * out and the prompt says so) and without Locus's own comments, which are
 * bookkeeping, not requirements.
 */
import type { Comment, IssueWithComments, TaskComment, TaskIssue } from "../github/index.ts";
import type { PromptIssue } from "../prompt/task-prompt.ts";
import { textAtTrigger, type TextAtTrigger } from "./text-at-trigger.ts";

export function isLocusComment(body: string): boolean {
  return body.trimStart().startsWith("<!-- locus:");
}

function hasHistory(comment: Comment | TaskComment): comment is TaskComment {
  return "history" in comment;
}

/** Without an edit history, a comment changed after the trigger cannot be read as it was. */
function commentAt(comment: Comment | TaskComment, at: Date): TextAtTrigger {
  if (hasHistory(comment)) return textAtTrigger(comment.body, comment.history, at);
  const limit = at.getTime();
  if (Date.parse(comment.createdAt) > limit) return { ok: false, why: "it was written after the trigger" };
  if (Date.parse(comment.updatedAt) > limit) return { ok: false, why: "it was edited after the trigger" };
  return { ok: true, text: comment.body };
}

export function promptIssue(issue: IssueWithComments | TaskIssue, triggeredAt: Date): PromptIssue {
  const withheld: string[] = [];
  let body = issue.body;
  if ("history" in issue) {
    const text = textAtTrigger(issue.body, issue.history, triggeredAt);
    if (text.ok) body = text.text;
    else {
      body = "";
      withheld.push(`The issue description: ${text.why}.`);
    }
  }
  const comments: { author: string; body: string }[] = [];
  for (const comment of issue.comments) {
    if (Date.parse(comment.createdAt) > triggeredAt.getTime() || isLocusComment(comment.body)) continue;
    const text = commentAt(comment, triggeredAt);
    if (!text.ok) withheld.push(`A comment by @${comment.author}: ${text.why}.`);
    else if (!isLocusComment(text.text)) comments.push({ author: comment.author, body: text.text });
  }
  return {
    number: issue.number,
    title: issue.title,
    body,
    labels: issue.labels,
    comments,
    ...(withheld.length > 0 ? { withheld } : {}),
  };
}
