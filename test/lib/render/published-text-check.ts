/**
 * Hostile Markdown through Locus's publishing functions, read back as GitHub
 * would: whatever the untrusted text holds (mentions, closing keywords,
 * backtick runs, brackets, character references, images, HTML, nesting), the
 * output has no live mention, no closing keyword but the task's own, and no
 * image from outside GitHub. The status comment, the sprint dashboard, the `/locus status` reply,
 * the job summary, the answer comment, a planned issue and the did-not-push comment are among the
 * slots (document-slots.ts). The 10,000 documents are checked in two files
 * (`published-text*.property.test.ts`), each taking every other slot, so two workers share them.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { renderFailureComment } from "../../../lib/render/failure-comment.ts";
import { tableCell } from "../../../lib/render/markdown.ts";
import { renderPullRequestBody } from "../../../lib/render/pull-request-body.ts";
import { renderQuestionComment } from "../../../lib/render/question-comment.ts";
import { safeToPublish } from "../../../lib/render/safe-text.ts";
import { DOCUMENT_SLOTS, type Slot } from "./document-slots.ts";
import { liveMarkup } from "./live-markup.ts";

const PIECES = [
  "@octocat",
  "@org/team",
  "&#64;x",
  "&#x40;y",
  "&commat;z",
  "@",
  "fixes #1",
  "Closes o/r#2",
  "RESOLVED: https://github.com/o/r/issues/3",
  "fix",
  "es #4",
  "clo",
  "ses",
  "#5",
  "`",
  "``",
  "```",
  "~~~",
  "\\`",
  "\\",
  "[",
  "]",
  "(",
  ")",
  "![a](https://evil.example/i.png)",
  "![a [b]](https://evil.example/j.png)",
  "![",
  "](https://evil.example/k.png)",
  "[r]: https://evil.example/r.png",
  "![r]",
  "![r][]",
  "<img src=https://evil.example/h.png>",
  "<picture><source srcset=https://evil.example/s>",
  "<!--",
  "-->",
  "<b>",
  "</b>",
  "<details>",
  "*",
  "_",
  "**",
  "|",
  "> ",
  "- ",
  "1. ",
  "# ",
  "---",
  "===",
  "    ",
  "\n",
  "\n\n",
  " ",
  "x",
  "a@b.com",
  "&amp;",
  "&",
  "#",
  "\u2060",
];

const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 })), { maxLength: 14 })
  .map((parts) => parts.join(""));

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const pr = { issue: 9, summary: "s", filesChanged: [], toolCalls: [], costUsd: 0, usage, model: "m" };

/** Each untrusted slot of each publishing function, with the live markup Locus itself adds there. */
export const SLOTS: readonly Slot[] = [
  ["safeToPublish", safeToPublish, []],
  ["table cell", (text) => `| a |\n| - |\n| ${tableCell(text)} |`, []],
  ["PR summary", (text) => renderPullRequestBody({ ...pr, summary: text }), ["Closes #9"]],
  [
    "PR file",
    (text) => renderPullRequestBody({ ...pr, filesChanged: [{ path: text, additions: 1, deletions: 0 }] }),
    ["Closes #9"],
  ],
  [
    "PR tool target",
    (text) => renderPullRequestBody({ ...pr, toolCalls: [{ name: "read_file", target: text, ok: true }] }),
    ["Closes #9"],
  ],
  [
    "PR model and notice",
    (text) => renderPullRequestBody({ ...pr, model: text, notice: text }),
    ["Closes #9"],
  ],
  ["question", (text) => renderQuestionComment({ questions: [text, "b"] }), []],
  ["question checkpoint", (text) => renderQuestionComment({ questions: ["q"], checkpoint: text }), []],
  ["failure reason", (text) => renderFailureComment({ reason: text, logTail: "" }), []],
  ["failure agent", (text) => renderFailureComment({ reason: "r", agentSaid: text, logTail: text }), []],
  [
    "failure branch",
    (text) =>
      renderFailureComment({
        reason: "r",
        checkpoint: text,
        repositoryUrl: "https://github.com/o/r",
        logTail: "",
      }),
    [],
  ],
  ...DOCUMENT_SLOTS,
];

/** Publishes `numRuns` hostile texts, each in one of `slots`, and reads each document back. */
export function assertPublishedTextInert(slots: readonly Slot[], numRuns: number): void {
  fc.assert(
    fc.property(hostile, fc.constantFrom(...slots), (text, [, publish, own]) => {
      const live = liveMarkup(publish(text));
      expect(live).toEqual({ mentions: [], closings: own, outsideImages: [] });
    }),
    { numRuns },
  );
}

/** Every other slot, from the first (`half` 0) or the second (`half` 1): the two files' shares. */
export function slotsOfHalf(half: 0 | 1): Slot[] {
  return SLOTS.filter((_, index) => index % 2 === half);
}
