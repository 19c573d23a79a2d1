/**
 * `report_unrelated_failure` (fix-ci mode only): the agent's verdict that a
 * CI failure is not caused by the PR (flaky, infrastructure). Locus then
 * reports it on the PR and commits nothing.
 */
import { z } from "zod";
import type { AgentTool } from "../tool.ts";

const inputSchema = z.object({
  reason: z
    .string()
    .min(1)
    .describe(
      "Why the failure is unrelated to the pull request, with the evidence (e.g. it passes locally).",
    ),
});

export function createReportUnrelatedTool(onReport: (reason: string) => void): AgentTool<typeof inputSchema> {
  return {
    name: "report_unrelated_failure",
    description:
      "Report that the CI failure is not caused by this pull request (a flaky test, the CI infrastructure). Locus will say so on the PR and commit nothing. Then call finish.",
    inputSchema,
    readOnly: true,
    run(input) {
      onReport(input.reason);
      return Promise.resolve({
        content:
          "Recorded: the failure is unrelated. Call finish now; your edits, if any, are not committed.",
        isError: false,
        summary: "Reported an unrelated failure",
      });
    },
  };
}
