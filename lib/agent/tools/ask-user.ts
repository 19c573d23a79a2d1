/**
 * `ask_user`: the agent cannot go on without a person's decision. The question is recorded; the
 * loop ends the run after the turn it was asked in (several questions of one turn go out
 * together), Locus posts them on the issue, saves the work and marks the issue `locus:waiting`.
 * A writer's answer starts the next run from the saved work with the question and the answer in
 * its prompt. Only coding tasks have it: plan, review and ask modes answer in their own output.
 */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";
import { clip } from "./results.ts";

export const QUESTION_RECORDED =
  "Your question will be posted on the issue for the people behind the task. This run ends after this turn and your work so far is saved; when someone answers, the task continues from it with your question and their answer in the prompt. Ask any other question now, in this same turn; do not guess the answer.";

const inputSchema = z.object({
  question: z
    .string()
    .min(1)
    .describe("The question, self-contained, as a person reading the issue would need it."),
});

export const askUserTool: AgentTool<typeof inputSchema> = {
  name: "ask_user",
  description:
    "Ask the people behind the task a question you cannot answer yourself from the repository or the issue. The run ends after this turn and resumes when someone answers; ask every question you have in the same turn.",
  inputSchema,
  readOnly: false,
  run(input, context) {
    context.onQuestion(input.question);
    return Promise.resolve({
      content: QUESTION_RECORDED,
      isError: false,
      summary: `Asked: ${clip(input.question, 70)}`,
    });
  },
};
