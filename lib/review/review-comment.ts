/**
 * What a Locus review looks like on GitHub: one review whose body holds the
 * summary and the findings that could not sit on a diff line, and one line
 * comment per anchored finding. Hidden markers let `/locus iterate` tell
 * Locus's review findings (feedback to address) from its replies (bookkeeping).
 */
import { safeToPublish } from "../render/safe-text.ts";
import { fitBody } from "../render/comment-limit.ts";
import { hiddenMarker } from "../markers.ts";
import type { Finding, SEVERITIES, Verdict } from "./review-schema.ts";

export const REVIEW_MARKER = hiddenMarker("review");
export const FINDING_MARKER = hiddenMarker("finding");

const SEVERITY_LABEL: Readonly<Record<(typeof SEVERITIES)[number], string>> = {
  critical: "🔴 Critical",
  major: "🟠 Major",
  minor: "🟡 Minor",
  nit: "⚪ Nit",
};

/** A body Locus wrote as review feedback: its review or one of its line comments. */
export function isLocusReviewText(body: string): boolean {
  const start = body.trimStart();
  return start.startsWith(REVIEW_MARKER) || start.startsWith(FINDING_MARKER);
}

export function renderFindingComment(finding: Finding): string {
  return fitBody(
    `${FINDING_MARKER}\n**${SEVERITY_LABEL[finding.severity]}:** ${safeToPublish(finding.body.trim())}`,
  );
}

export interface ReviewBodyInput {
  readonly summary: string;
  /** The verdict the agent gave. */
  readonly verdict: Verdict;
  /** The event posted: COMMENT when GitHub refuses REQUEST_CHANGES from the PR's author. */
  readonly event: Verdict;
  readonly inlineCount: number;
  readonly unplaced: readonly Finding[];
}

function findingLine(finding: Finding): string {
  const side = finding.side === "LEFT" ? " (removed line)" : "";
  const text = safeToPublish(finding.body.trim()).replace(/\n+/g, "\n  ");
  return `- **${SEVERITY_LABEL[finding.severity]}** \`${finding.path}:${finding.line}\`${side}: ${text}`;
}

export function renderReviewBody(input: ReviewBodyInput): string {
  const parts = [REVIEW_MARKER, "## Locus review", safeToPublish(input.summary.trim())];
  if (input.verdict !== input.event) {
    parts.push(
      "**Verdict: changes requested.** Locus opened this pull request, and GitHub does not let a pull request's author request changes, so this review is posted as a comment.",
    );
  }
  if (input.unplaced.length > 0) {
    parts.push(
      `### Findings outside the diff\n\nThese are not on lines this pull request changes, so they cannot be line comments:\n\n${input.unplaced.map(findingLine).join("\n")}`,
    );
  }
  const total = input.inlineCount + input.unplaced.length;
  parts.push(
    `<sub>${total} finding${total === 1 ? "" : "s"} (${input.inlineCount} on diff lines). Reply \`/locus iterate\` to have Locus address them.</sub>`,
  );
  return fitBody(parts.filter((part) => part.length > 0).join("\n\n"));
}
