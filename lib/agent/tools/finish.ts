/** `finish`: ends the task; the loop stops when it sees this tool and reports the summary. */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";

const inputSchema = z.object({
  summary: z
    .string()
    .min(1)
    .describe("What was done, what was checked and anything left open, for the pull request and the issue."),
});

export const finishTool: AgentTool<typeof inputSchema> = {
  name: "finish",
  description:
    "Finish the task with a summary of what you did and how you checked it. Call it once, when the work is done or cannot be done.",
  inputSchema,
  readOnly: true,
  run(input) {
    return Promise.resolve({ content: input.summary, isError: false, summary: "Finish" });
  },
};
