/**
 * `ask_user`: runs are unattended, so nobody answers. The question is recorded for the status
 * comment and the model is told to proceed conservatively or stop (the non-interactive rule of
 * seeds/maca-worktree-agent.md).
 */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";
import { clip } from "./results.ts";

export const UNATTENDED_ANSWER =
  "No one is available to answer. Decide conservatively yourself and say what you assumed, or stop with finish and explain what you need.";

const inputSchema = z.object({
  question: z
    .string()
    .min(1)
    .describe("The question, self-contained, as a person reading the issue would need it."),
});

export const askUserTool: AgentTool<typeof inputSchema> = {
  name: "ask_user",
  description:
    "Ask the people behind the task a question. This run is unattended: the question is recorded on the issue, but no answer comes during the run.",
  inputSchema,
  readOnly: true,
  run(input, context) {
    context.onQuestion(input.question);
    return Promise.resolve({
      content: UNATTENDED_ANSWER,
      isError: false,
      summary: `Asked: ${clip(input.question, 70)}`,
    });
  },
};
