/** `finish`: ends the task; the loop stops when it sees this tool and reports the summary. */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";

/** One review thread of an iterate round, as the agent reports it: Locus replies and resolves from this. */
export const threadReportSchema = z.object({
  thread: z.string().min(1).describe("The thread's label from the prompt, e.g. `T1`."),
  addressed: z.boolean().describe("Whether your change addresses this thread."),
  note: z.string().describe("One sentence for the reviewer: what you changed, or why you did not."),
});

const inputSchema = z.object({
  summary: z
    .string()
    .min(1)
    .describe("What was done, what was checked and anything left open, for the pull request and the issue."),
  threads: z
    .array(threadReportSchema)
    .optional()
    .describe(
      "When addressing review threads (T1, T2, …): one entry per thread, saying whether you addressed it. Only addressed threads are resolved.",
    ),
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
