import { liveMarkup } from "../render/live-markup.ts";
import { describe, expect, it } from "vitest";
import {
  FINDING_MARKER,
  isLocusReviewText,
  renderFindingComment,
  renderReviewBody,
  REVIEW_MARKER,
} from "../../../lib/review/review-comment.ts";
import { reviewEvent } from "../../../lib/review/review-event.ts";
import { reviewSchema } from "../../../lib/review/review-schema.ts";
import { numberDiff } from "../../../lib/review/numbered-diff.ts";
import { linkedIssueOf } from "../../../lib/review/linked-issue.ts";

describe("reviewSchema", () => {
  it("refuses APPROVE and defaults findings to none", () => {
    expect(reviewSchema.safeParse({ summary: "ok", verdict: "APPROVE" }).success).toBe(false);
    expect(reviewSchema.parse({ summary: "ok", verdict: "COMMENT" }).findings).toEqual([]);
  });
});

describe("reviewEvent", () => {
  it("comments instead of requesting changes on a PR its own identity opened", () => {
    expect(reviewEvent("REQUEST_CHANGES", "Locus[bot]", ["locus[bot]"])).toBe("COMMENT");
    expect(reviewEvent("REQUEST_CHANGES", "dana", ["locus[bot]"])).toBe("REQUEST_CHANGES");
    expect(reviewEvent("COMMENT", "dana", ["locus[bot]"])).toBe("COMMENT");
  });
});

describe("review rendering", () => {
  const unplaced = [
    { path: "README.md", line: 3, severity: "major" as const, body: "The docs say\nthe opposite." },
  ];

  it("puts the summary, a note on the verdict and the findings outside the diff in the body", () => {
    const body = renderReviewBody({
      summary: "Mostly right.",
      verdict: "REQUEST_CHANGES",
      event: "COMMENT",
      inlineCount: 2,
      unplaced,
    });
    const lines = body.split("\n");
    expect(lines[0]).toBe(REVIEW_MARKER);
    expect(lines).toContain("Mostly right.");
    expect(body).toContain("**Verdict: changes requested.**");
    expect(lines).toContain("### Findings outside the diff");
    expect(lines).toContain("- **🟠 Major** `README.md:3`: The docs say the opposite.");
    expect(body).toContain("3 findings (2 on diff lines)");
    expect(isLocusReviewText(body)).toBe(true);
  });

  it("keeps a path and a finding that hold backticks, mentions and keywords inert", () => {
    const hostile = {
      path: "a` @octocat fixes #1 `b",
      line: 1,
      severity: "nit" as const,
      body: "@x &#64;y fixes #2 ![i](https://evil.example/i)",
    };
    const body = renderReviewBody({
      summary: "fixes #3 @z",
      verdict: "COMMENT",
      event: "COMMENT",
      inlineCount: 0,
      unplaced: [hostile],
    });
    expect(liveMarkup(body)).toEqual({ mentions: [], closings: [], outsideImages: [] });
    expect(liveMarkup(renderFindingComment(hostile))).toEqual({
      mentions: [],
      closings: [],
      outsideImages: [],
    });
  });

  it("says nothing about the verdict when it was posted as given, and lists no empty section", () => {
    const body = renderReviewBody({
      summary: "Fine.",
      verdict: "COMMENT",
      event: "COMMENT",
      inlineCount: 0,
      unplaced: [],
    });
    expect(body).not.toContain("Verdict");
    expect(body).not.toContain("outside the diff");
  });

  it("marks each line comment as a Locus finding with its severity", () => {
    const body = renderFindingComment({ path: "a.js", line: 1, severity: "critical", body: "Crashes." });
    expect(body.split("\n")).toEqual([FINDING_MARKER, "", "**🔴 Critical:** Crashes."]);
    expect(isLocusReviewText(body)).toBe(true);
    expect(isLocusReviewText("A person's comment")).toBe(false);
  });
});

describe("numberDiff", () => {
  it("prefixes hunk lines with their old and new numbers and leaves headers alone", () => {
    const numbered = numberDiff(
      ["diff --git a/a b/a", "--- a/a", "+++ b/a", "@@ -4,3 +4,3 @@", " same", "-old", "+new", " tail"].join(
        "\n",
      ),
    ).split("\n");
    expect(numbered.slice(0, 4)).toEqual(["diff --git a/a b/a", "--- a/a", "+++ b/a", "@@ -4,3 +4,3 @@"]);
    expect(numbered.slice(4)).toEqual([
      "    4     4 | same",
      "    5       |-old",
      "          5 |+new",
      "    6     6 | tail",
    ]);
  });
});

describe("linkedIssueOf", () => {
  it("reads Locus's branch first, then a closing keyword", () => {
    expect(linkedIssueOf({ head: { ref: "locus/issue-7" }, body: "Closes #3" })).toBe(7);
    expect(linkedIssueOf({ head: { ref: "feature" }, body: "This fixes #12." })).toBe(12);
    expect(linkedIssueOf({ head: { ref: "feature" }, body: "See #12" })).toBeUndefined();
  });
});
