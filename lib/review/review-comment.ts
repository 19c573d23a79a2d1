/**
 * What a Locus review looks like on GitHub: one review whose body holds the
 * summary and the findings that could not sit on a diff line, and one line
 * comment per anchored finding. Hidden markers let `/locus iterate` tell
 * Locus's review findings (feedback to address) from its replies (bookkeeping).
 * Built as trees: the agent's words and the file paths are text and code.
 */
import { fitBody } from "../render/comment-limit.ts";
import { hiddenMarker } from "../markers.ts";
import { code, heading, list, paragraph, root, small, strong, trustedHtml } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline, untrustedMarkdown } from "../render/tree/untrusted-text.ts";
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
  const [first, ...rest] = untrustedMarkdown(finding.body.trim());
  const lead = first?.type === "paragraph" ? first.children : [];
  const tree = root(
    trustedHtml(FINDING_MARKER),
    paragraph(strong(`${SEVERITY_LABEL[finding.severity]}:`), " ", ...lead),
    first?.type === "paragraph" ? rest : [...(first ? [first] : []), ...rest],
  );
  return fitBody(toGitHubMarkdown(tree));
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

export function renderReviewBody(input: ReviewBodyInput): string {
  const total = input.inlineCount + input.unplaced.length;
  const findings = input.unplaced.map((finding) => [
    strong(SEVERITY_LABEL[finding.severity]),
    " ",
    code(`${finding.path}:${finding.line}`),
    finding.side === "LEFT" ? " (removed line): " : ": ",
    ...untrustedInline(finding.body.trim().replace(/\s+/g, " ")),
  ]);
  const tree = root(
    trustedHtml(REVIEW_MARKER),
    heading(2, "Locus review"),
    untrustedMarkdown(input.summary.trim()),
    input.verdict !== input.event &&
      paragraph(
        strong("Verdict: changes requested."),
        " Locus opened this pull request, and GitHub does not let a pull request's author request changes, so this review is posted as a comment.",
      ),
    input.unplaced.length > 0 && [
      heading(3, "Findings outside the diff"),
      paragraph("These are not on lines this pull request changes, so they cannot be line comments:"),
      list(findings),
    ],
    small(
      `${total} finding${total === 1 ? "" : "s"} (${input.inlineCount} on diff lines). Reply `,
      code("/locus iterate"),
      " to have Locus address them.",
    ),
  );
  return fitBody(toGitHubMarkdown(tree));
}
