/**
 * An issue as the prompt sees it: only text as it stood when the run was
 * triggered (an edit made later must not smuggle in instructions; with the
 * edit history the earlier text is recovered, without it the text is left
 * out and the prompt says so), without Locus's own comments, which are
 * bookkeeping, not requirements, and without the words of people who lack
 * write access unless config lets them in (lib/trust/comment-trust.ts).
 */
import type { IssueWithComments, TaskIssue } from "../github/index.ts";
import { isLocusMarked } from "../markers.ts";
import { trustComments, type CommentTrust } from "../trust/comment-trust.ts";
import type { PromptIssue } from "../prompt/task-prompt.ts";
import { itemAtTrigger, textAtTrigger, type TimedText } from "../trust/text-at-trigger.ts";
import { titleAtTrigger } from "../trust/title-at-trigger.ts";

export function isLocusComment(body: string): boolean {
  return isLocusMarked(body);
}

export interface CommentsAtTrigger<T> {
  /** The comments written by the trigger, each with its text as it stood then. */
  readonly comments: T[];
  /** Why each comment that was edited after the trigger and cannot be recovered is left out. */
  readonly withheld: string[];
}

/** A thread's comments as they stood at the trigger, Locus's own bookkeeping left out. */
export function commentsAtTrigger<T extends TimedText & { readonly author: string }>(
  comments: readonly T[],
  triggeredAt: Date,
): CommentsAtTrigger<T> {
  const kept: T[] = [];
  const withheld: string[] = [];
  for (const comment of comments) {
    if (isLocusComment(comment.body)) continue;
    const then = itemAtTrigger(comment, triggeredAt);
    if (then.kind === "withheld") withheld.push(`A comment by @${comment.author}: ${then.why}.`);
    else if (then.kind === "kept" && !isLocusComment(then.item.body)) kept.push(then.item);
  }
  return { comments: kept, withheld };
}

/** Everyone whose comment on the issue the prompt could show: whose write access decides it. */
export function commentAuthors(issue: Pick<IssueWithComments, "comments">): string[] {
  return issue.comments.filter((comment) => !isLocusComment(comment.body)).map((comment) => comment.author);
}

export function promptIssue(
  issue: IssueWithComments | TaskIssue,
  triggeredAt: Date,
  trust: CommentTrust,
): PromptIssue {
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
  // Outsiders are left out first, so nothing of theirs shows, not even why an edit was withheld.
  const heard = trustComments(issue.comments, trust);
  const thread = commentsAtTrigger(heard.comments, triggeredAt);
  withheld.push(...thread.withheld);
  return {
    number: issue.number,
    title: issue.title,
    body,
    labels: issue.labels,
    comments: thread.comments.map(({ author, body: text, outsider }) => ({ author, body: text, outsider })),
    ...(withheld.length > 0 ? { withheld } : {}),
    ...(heard.outsidersLeftOut > 0 ? { outsidersLeftOut: heard.outsidersLeftOut } : {}),
  };
}

/**
 * `promptIssue` with the title as it stood at the trigger too (title-at-trigger.ts), for the
 * modes a command starts; a coding task takes its title with its trigger (task-trigger.ts).
 * A pull request's thread has no timeline read, so its title is the current one.
 */
export function promptIssueAtTrigger(
  issue: IssueWithComments | TaskIssue,
  triggeredAt: Date,
  trust: CommentTrust,
): PromptIssue {
  const prompted = promptIssue(issue, triggeredAt, trust);
  if (!("timeline" in issue) || issue.timeline === undefined) return prompted;
  const title = titleAtTrigger(issue.title, issue.timeline, triggeredAt);
  if (title.ok) return { ...prompted, title: title.title };
  return {
    ...prompted,
    title: `Issue #${issue.number}`,
    withheld: [`The issue title: ${title.why}.`, ...(prompted.withheld ?? [])],
  };
}
