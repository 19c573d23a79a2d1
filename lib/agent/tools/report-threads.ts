/**
 * `report_threads` (iterate mode, when the PR has review threads): the agent's
 * word on each thread it was given, from which Locus replies and resolves.
 * Every provider reports through it: the built-in runner offers it as a tool,
 * and a CLI or ACP agent gives its input as the run's final JSON answer. The
 * report is optional: an agent that gives none still delivers its work, and
 * every thread is left open.
 */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";
import type { ThreadReport } from "../runner.ts";
import { threadReportSchema } from "./finish.ts";

const inputSchema = z.object({
  summary: z
    .string()
    .min(1)
    .describe("What was done, what was checked and anything left open, for the pull request."),
  threads: z
    .array(threadReportSchema)
    .min(1)
    .describe(
      "One entry per review thread (T1, T2, …), saying whether your change addresses it. Only addressed threads are resolved.",
    ),
});

export function createReportThreadsTool(
  onReport: (threads: readonly ThreadReport[]) => void,
): AgentTool<typeof inputSchema> {
  return {
    name: "report_threads",
    description:
      "Report, for every review thread (T1, T2, …), whether your change addresses it, with a one-sentence note for the reviewer, and summarize the round. Call it once, when the work is done, then call finish.",
    inputSchema,
    readOnly: true,
    optionalAnswer: true,
    run(input) {
      onReport(input.threads);
      return Promise.resolve({
        content: `Recorded ${input.threads.length} thread reports. Call finish now.`,
        isError: false,
        // As a final answer this is the run's summary, so it is the agent's own.
        summary: input.summary,
      });
    },
  };
}
