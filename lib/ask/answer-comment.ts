/**
 * A Locus answer in the thread. Its hidden marker records the question it
 * answers, so the next `/locus ask` can rebuild the conversation from the
 * answers alone: a question nobody answered (refused, failed) is not part of
 * it, and runs that finish out of order still pair each answer with its
 * question.
 */
import { embedJson, markerOpen, MARKER_CLOSE as CLOSE } from "../markers.ts";
import { fitBody, GITHUB_BODY_LIMIT } from "../render/comment-limit.ts";
import { blockquote, code, link, paragraph, root, small, strong, trustedHtml } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline, untrustedMarkdown } from "../render/tree/untrusted-text.ts";

const ANSWER_OPEN = markerOpen("answer");
const QUOTE_LIMIT = 500;
/** Room left for the marker, the quoted question and the footer. */
const ANSWER_LIMIT = GITHUB_BODY_LIMIT - 4_000;

export interface AnswerView {
  readonly question: string;
  /** Markdown, citations already linked. */
  readonly answer: string;
  readonly sha: string;
  /** Link to the commit the answer was read at. */
  readonly commitUrl: string;
}

export interface Exchange {
  readonly question: string;
  readonly answer: string;
}

/** The comment as one tree: the record, the question quoted on one line, the answer's outline, the footer. */
export function renderAnswerComment(view: AnswerView): string {
  const question =
    view.question.length > QUOTE_LIMIT ? `${view.question.slice(0, QUOTE_LIMIT)}…` : view.question;
  const answer = view.answer.trim();
  const tree = root(
    trustedHtml(`${ANSWER_OPEN}${embedJson({ question: view.question, sha: view.sha })}${CLOSE}`),
    blockquote(paragraph(strong("Question:"), " ", ...untrustedInline(question.replace(/\s+/g, " ").trim()))),
    untrustedMarkdown(answer.length > ANSWER_LIMIT ? answer.slice(0, ANSWER_LIMIT) : answer),
    small("Answered by Locus from the code at ", link(view.commitUrl, code(view.sha.slice(0, 7))), "."),
  );
  // Escapes can lengthen the answer past GitHub's limit: cut at a line, which keeps every line's text inert.
  return fitBody(toGitHubMarkdown(tree));
}

/** The exchange an answer comment records, or undefined for any other comment. */
export function readAnswerComment(body: string): Exchange | undefined {
  if (!body.startsWith(ANSWER_OPEN)) return undefined;
  const end = body.indexOf(CLOSE, ANSWER_OPEN.length);
  if (end < 0) return undefined;
  let question: unknown;
  try {
    question = (JSON.parse(body.slice(ANSWER_OPEN.length, end)) as { question?: unknown }).question;
  } catch {
    return undefined;
  }
  if (typeof question !== "string") return undefined;
  const lines = body.slice(end + CLOSE.length).split("\n");
  let start = 0;
  // Older answers put the quoted question on the marker's next line, newer ones after a blank line.
  while (lines[start]?.trim() === "") start += 1;
  while (lines[start]?.startsWith(">")) start += 1;
  while (lines[start]?.trim() === "") start += 1;
  let stop = lines.length;
  if (lines[stop - 1]?.startsWith("<sub>Answered by Locus")) stop -= 1;
  while (stop > start && lines[stop - 1]?.trim() === "") stop -= 1;
  return { question, answer: lines.slice(start, stop).join("\n") };
}
