/**
 * The comment that asks the people behind a task the agent's questions, all
 * of one run together. The agent wrote the questions, so they are text in the
 * comment's tree (no pings, no closing keywords, no images); only the person
 * who asked for the work is mentioned, by Locus.
 */
import { hiddenMarker } from "../markers.ts";
import {
  blockquote,
  code,
  mention,
  paragraph,
  root,
  strong,
  trustedHtml,
  type Inline,
} from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedMarkdown } from "./tree/untrusted-text.ts";

export interface QuestionCommentInput {
  readonly questions: readonly string[];
  /** Who asked for the work; mentioned so GitHub tells them. */
  readonly requester?: string;
  /** The branch the work so far was saved on. */
  readonly checkpoint?: string;
}

export function renderQuestionComment(input: QuestionCommentInput): string {
  const who: Inline[] = input.requester ? [mention(input.requester), " "] : [];
  const several = input.questions.length > 1;
  const intro = `Locus has ${several ? `${input.questions.length} questions` : "a question"} before it can go on with this issue:`;
  const questions = input.questions.flatMap((question, index) => [
    several && paragraph(strong(`${index + 1}.`)),
    blockquote(...untrustedMarkdown(question.trim())),
  ]);
  const saved: Inline[] = input.checkpoint
    ? [" The work so far is saved on ", code(input.checkpoint), "; the next run continues from it."]
    : [" Nothing was changed yet."];
  return toGitHubMarkdown(
    root(
      trustedHtml(hiddenMarker("question")),
      paragraph(...who, intro),
      ...questions,
      paragraph(
        "Answer in a comment here (anyone with write access), or with ",
        code("/locus answer <text>"),
        "; Locus then continues with the answer.",
        ...saved,
      ),
    ),
  );
}
