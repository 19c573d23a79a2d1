/**
 * A task that asked a question resumes with the question and its answer in
 * its prompt. The answer is what people wrote on the issue after Locus posted
 * the question, as it stood when this run was triggered: ordinary comments
 * whole, `/locus answer <text>` as its text, other commands left out. Only
 * people with write access answer (the caller checks); Locus's own comments
 * are bookkeeping. Pure.
 */
import { parseCommand } from "../commands/index.ts";
import type { TaskComment } from "../github/index.ts";
import { isLocusComment } from "./prompt-issue.ts";
import { itemAtTrigger } from "../trust/text-at-trigger.ts";

export interface QuestionAnswer {
  readonly author: string;
  readonly body: string;
}

/** Comment ids grow with time, and two comments of one second still compare. */
export function answersAfter(
  comments: readonly TaskComment[],
  questionCommentId: number,
  triggeredAt: Date,
): QuestionAnswer[] {
  const answers: QuestionAnswer[] = [];
  for (const comment of comments) {
    if (comment.id <= questionCommentId || isLocusComment(comment.body)) continue;
    const then = itemAtTrigger(comment, triggeredAt);
    if (then.kind !== "kept") continue;
    const parsed = parseCommand(then.item.body);
    if (parsed.kind === "command" && parsed.command.name === "answer")
      answers.push({ author: comment.author, body: parsed.command.text });
    else if (parsed.kind === "none") answers.push({ author: comment.author, body: then.item.body });
  }
  return answers;
}
