/**
 * What runTask adds to the issue before it becomes the prompt: the questions
 * the last attempt asked with the writers' answers, and a note when the title
 * as it stood at the trigger is withheld.
 */
import type { TaskIssue } from "../github/index.ts";
import type { AnsweredQuestions, PromptIssue } from "../prompt/task-prompt.ts";
import type { StatusState } from "../status/status-comment.ts";
import { answersAfter } from "./question-answer.ts";
import type { Writers } from "../trust/writers.ts";

/**
 * The questions the last attempt asked and what people with write access
 * answered after them, as it stood at the trigger. The app queued the task on
 * a writer's answer; the permission is checked again here because anyone with
 * write access can dispatch a run by hand.
 */
export async function answeredQuestions(
  issue: TaskIssue,
  triggeredAt: Date,
  writers: Writers,
  waiting: NonNullable<StatusState["waiting"]>,
): Promise<AnsweredQuestions> {
  const candidates = answersAfter(issue.comments, waiting.commentId, triggeredAt);
  // The same writer rule, and the same cached lookups, as the rest of the prompt.
  const trust = await writers.trustFor(candidates.map((answer) => answer.author));
  return {
    questions: waiting.questions,
    answers: candidates.filter((answer) => trust.isWriter(answer.author)),
  };
}

/** The prompt says when the title as it stood at the trigger is lost and a neutral one stands in. */
export function withTitleNote(issue: PromptIssue, why: string | undefined): PromptIssue {
  return why === undefined
    ? issue
    : { ...issue, withheld: [`The issue title: ${why}.`, ...(issue.withheld ?? [])] };
}
