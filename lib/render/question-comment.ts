/**
 * The comment that asks the people behind a task the agent's questions, all
 * of one run together. The agent wrote the questions, so they are published
 * safely (no pings, no closing keywords, no outside images); only the person
 * who asked for the work is mentioned, by Locus.
 */
import { hiddenMarker } from "../markers.ts";
import { safeToPublish } from "./safe-text.ts";

export interface QuestionCommentInput {
  readonly questions: readonly string[];
  /** Who asked for the work; mentioned so GitHub tells them. */
  readonly requester?: string;
  /** The branch the work so far was saved on. */
  readonly checkpoint?: string;
}

function quoted(question: string): string {
  return safeToPublish(question.trim())
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

export function renderQuestionComment(input: QuestionCommentInput): string {
  const who = input.requester ? `@${input.requester} ` : "";
  const several = input.questions.length > 1;
  const intro = `${who}Locus has ${several ? `${input.questions.length} questions` : "a question"} before it can go on with this issue:`;
  const questions = several
    ? input.questions.map((question, index) => `**${index + 1}.**\n${quoted(question)}`)
    : input.questions.map(quoted);
  const saved = input.checkpoint
    ? `The work so far is saved on \`${input.checkpoint}\`; the next run continues from it.`
    : "Nothing was changed yet.";
  return [
    hiddenMarker("question"),
    intro,
    ...questions,
    `Answer in a comment here (anyone with write access), or with \`/locus answer <text>\`; Locus then continues with the answer. ${saved}`,
  ].join("\n\n");
}
