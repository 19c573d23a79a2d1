/**
 * A review as the reviewing agent submits it. The verdict cannot be APPROVE:
 * a model's opinion never merges code, so approving stays with people.
 */
import { z } from "zod";

export const SEVERITIES = ["critical", "major", "minor", "nit"] as const;

const findingSchema = z.object({
  path: z.string().trim().min(1).describe("File path relative to the repository root, as in the diff."),
  line: z
    .number()
    .int()
    .positive()
    .describe("Line number in the new file (side RIGHT) or, for a removed line, the old file (side LEFT)."),
  side: z
    .enum(["RIGHT", "LEFT"])
    .optional()
    .describe("RIGHT (default) for added or unchanged lines, LEFT for removed lines."),
  severity: z.enum(SEVERITIES),
  body: z.string().trim().min(1).max(10_000).describe("What is wrong and how to fix it."),
});

export const reviewSchema = z.object({
  summary: z.string().trim().min(1).max(20_000).describe("The overall assessment of the change."),
  verdict: z
    .enum(["COMMENT", "REQUEST_CHANGES"])
    .describe("REQUEST_CHANGES when a finding must be fixed before merging, else COMMENT."),
  findings: z.array(findingSchema).max(100).default([]),
});

export type Finding = z.infer<typeof findingSchema>;
export type SubmittedReview = z.infer<typeof reviewSchema>;
export type Verdict = SubmittedReview["verdict"];
