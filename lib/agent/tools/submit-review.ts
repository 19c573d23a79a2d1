/**
 * `submit_review` (review mode only): the review as tool input — findings
 * anchored to diff lines, a summary and a verdict that is never APPROVE. The
 * last valid submission is the review; Locus posts it after the run.
 */
import { reviewSchema, type SubmittedReview } from "../../review/review-schema.ts";
import type { AgentTool } from "../tool.ts";

export function createSubmitReviewTool(
  onReview: (review: SubmittedReview) => void,
): AgentTool<typeof reviewSchema> {
  return {
    name: "submit_review",
    description: [
      "Submit your review of the pull request: an overall summary, a verdict (COMMENT or REQUEST_CHANGES;",
      "approving is left to people) and findings, each on a line of the diff (path, line, side) with a",
      "severity. Call it once, when you have read enough, then call finish.",
    ].join(" "),
    inputSchema: reviewSchema,
    readOnly: true,
    run(input) {
      onReview(input);
      return Promise.resolve({
        content: `Review recorded: ${input.findings.length} findings, verdict ${input.verdict}. Call finish now with a one-line summary.`,
        isError: false,
        summary: `Reviewed: ${input.verdict}, ${input.findings.length} findings`,
      });
    },
  };
}
