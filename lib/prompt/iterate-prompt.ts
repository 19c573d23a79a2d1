/** The task part of an iterate round: the PR as it is, and the feedback still open. */
import { truncateHead } from "./budget.ts";
import type { SelectedFeedback } from "./feedback.ts";
import { quoteUntrusted, sanitizeUntrusted } from "./sanitize.ts";
import { BUDGETS, type PromptIssue, renderIssue } from "./task-prompt.ts";

export interface IteratePromptInput {
  readonly issue: PromptIssue;
  readonly pr: { readonly number: number; readonly diff: string };
  readonly feedback: SelectedFeedback;
  readonly note: string;
  /** Feedback left out because its text at the trigger is lost, one line each. */
  readonly withheld?: readonly string[];
}

/** How the prompt names the review thread at `index`, and how the agent reports on it. */
export function threadLabel(index: number): string {
  return `T${index + 1}`;
}

export function renderIterateTask(input: IteratePromptInput): string {
  const diff = truncateHead(input.pr.diff, BUDGETS.prDiff, "PR diff", "Read the files for the rest.");
  const feedback: string[] = [];
  for (const [index, thread] of input.feedback.threads.entries()) {
    const at = thread.line === null ? thread.path : `${thread.path}:${thread.line}`;
    // GitHub drops the line of an outdated thread; the hunk still shows what was commented on.
    const where = thread.isOutdated ? `${at} (outdated: the code changed since this comment)` : at;
    const said = thread.comments
      .map((c) => quoteUntrusted(`@${c.author}`, sanitizeUntrusted(c.body)))
      .join("\n\n");
    feedback.push(
      `#### ${threadLabel(index)}: ${where}\n\n\`\`\`diff\n${thread.diffHunk}\n\`\`\`\n\n${said}`,
    );
  }
  for (const review of input.feedback.reviews) {
    const verdict = review.state === "CHANGES_REQUESTED" ? "requested changes" : review.state.toLowerCase();
    feedback.push(
      `#### Review by @${review.author} (${verdict})\n\n${quoteUntrusted(`@${review.author}`, sanitizeUntrusted(review.body))}`,
    );
  }
  for (const comment of input.feedback.comments) {
    feedback.push(
      `#### Comment by @${comment.author}\n\n${quoteUntrusted(`@${comment.author}`, sanitizeUntrusted(comment.body))}`,
    );
  }
  const note = input.note.trim()
    ? `### Note with the request\n\n${quoteUntrusted("the requester", sanitizeUntrusted(input.note))}`
    : "";
  const withheld =
    input.withheld && input.withheld.length > 0
      ? `### Feedback left out\n\nOnly feedback as it stood when this run was triggered is used; edits made later are ignored.\n\n${input.withheld.map((line) => `- ${line}`).join("\n")}`
      : "";
  return [
    renderIssue(input.issue),
    `## Pull request #${input.pr.number} (your earlier work)\n\n\`\`\`diff\n${diff.text}\n\`\`\``,
    feedback.length > 0
      ? `## Review feedback to address\n\n${truncateHead(feedback.join("\n\n"), BUDGETS.feedback, "feedback").text}`
      : "",
    withheld,
    note,
    input.feedback.threads.length > 0
      ? "When the work is done, report on every review thread (T1, T2, …) with `report_threads`: whether your change addresses it, and a one-sentence note for the reviewer. Locus resolves only the threads you addressed and replies in the others with your note."
      : "",
    "Address this feedback; do not rewrite from scratch. Keep what reviewers did not ask to change.",
  ]
    .filter(Boolean)
    .join("\n\n");
}
