/**
 * A Locus answer in the thread. Its hidden marker records the question it
 * answers, so the next `/locus ask` can rebuild the conversation from the
 * answers alone: a question nobody answered (refused, failed) is not part of
 * it, and runs that finish out of order still pair each answer with its
 * question.
 */
import { embedJson, markerOpen, MARKER_CLOSE as CLOSE } from "../markers.ts";
import { safeToPublish } from "../render/safe-text.ts";
import { untrustedLine } from "../render/markdown.ts";
import { fitBody, GITHUB_BODY_LIMIT } from "../render/comment-limit.ts";

const ANSWER_OPEN = markerOpen("answer");
const QUOTE_LIMIT = 500;

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

function quote(question: string): string {
  const text = question.length > QUOTE_LIMIT ? `${question.slice(0, QUOTE_LIMIT)}…` : question;
  return `> **Question:** ${untrustedLine(text)}`;
}

export function renderAnswerComment(view: AnswerView): string {
  const record = embedJson({ question: view.question, sha: view.sha });
  const head = `${ANSWER_OPEN}${record}${CLOSE}\n${quote(view.question)}\n\n`;
  const footer = `\n\n<sub>Answered by Locus from the code at [\`${view.sha.slice(0, 7)}\`](${view.commitUrl}).</sub>`;
  const answer = fitBody(
    safeToPublish(view.answer.trim()),
    Math.max(1_000, GITHUB_BODY_LIMIT - head.length - footer.length),
  );
  return `${head}${answer}${footer}`;
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
  const lines = body
    .slice(end + CLOSE.length)
    .replace(/^\n/, "")
    .split("\n");
  let start = 0;
  while (lines[start]?.startsWith(">")) start += 1;
  while (lines[start]?.trim() === "") start += 1;
  let stop = lines.length;
  if (lines[stop - 1]?.startsWith("<sub>Answered by Locus")) stop -= 1;
  while (stop > start && lines[stop - 1]?.trim() === "") stop -= 1;
  return { question, answer: lines.slice(start, stop).join("\n") };
}
