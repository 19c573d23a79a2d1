/**
 * The conversation a `/locus ask` continues: the thread's earlier exchanges,
 * given to the agent as a transcript inside its one task prompt rather than
 * as alternating user/assistant turns. Questions were written by people and
 * answers were shaped by untrusted text, so both are quoted as data, which
 * API turns would not do; one prompt also works unchanged for every provider
 * (the CLIs take a single prompt) and keeps the cached prefix stable.
 */
import { truncateHead } from "../prompt/budget.ts";
import { isLocus } from "../github/locus-identity.ts";
import { quoteUntrusted, sanitizeUntrusted } from "../prompt/sanitize.ts";
import { readAnswerComment, type Exchange } from "./answer-comment.ts";

export interface ThreadComment {
  readonly author: string;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ConversationPolicy {
  /** Only answers existing, unedited, when the run was triggered count. */
  readonly triggeredAt: Date;
  /** Only answers Locus wrote count: anyone can type the marker. */
  readonly selfLogins: readonly string[];
}

const CONVERSATION_BUDGET = 24_000;
const ANSWER_BUDGET = 6_000;

export function earlierExchanges(comments: readonly ThreadComment[], policy: ConversationPolicy): Exchange[] {
  const limit = policy.triggeredAt.getTime();
  return comments
    .filter(
      (comment) =>
        isLocus(policy.selfLogins, comment.author) &&
        Date.parse(comment.createdAt) <= limit &&
        Date.parse(comment.updatedAt) <= limit,
    )
    .flatMap((comment) => readAnswerComment(comment.body) ?? []);
}

function renderExchange(exchange: Exchange, index: number): string {
  const answer = truncateHead(sanitizeUntrusted(exchange.answer), ANSWER_BUDGET, "answer").text;
  return [
    `### Question ${index + 1}`,
    quoteUntrusted("the person who asked", sanitizeUntrusted(exchange.question)),
    `### Your answer ${index + 1}`,
    quoteUntrusted("Locus (an earlier answer)", answer),
  ].join("\n\n");
}

/** The newest exchanges that fit `budget`, oldest first; the omission is said, never silent. */
export function renderConversation(exchanges: readonly Exchange[], budget = CONVERSATION_BUDGET): string {
  if (exchanges.length === 0) return "";
  const kept: string[] = [];
  let size = 0;
  for (let index = exchanges.length - 1; index >= 0; index -= 1) {
    const text = renderExchange(exchanges[index] as Exchange, index);
    if (kept.length > 0 && size + text.length > budget) break;
    kept.unshift(text);
    size += text.length;
  }
  const omitted = exchanges.length - kept.length;
  return [
    "## The conversation so far (earlier questions in this thread and your answers, oldest first)",
    omitted > 0 ? `[… ${omitted} earlier exchanges omitted to fit the prompt.]` : "",
    ...kept,
  ]
    .filter(Boolean)
    .join("\n\n");
}
