/**
 * Honest threads: after an iterate round pushes, Locus replies in each review
 * thread it was given with what the agent said about that thread, and resolves
 * only the threads the agent reported as addressed. A thread the agent said
 * nothing about is left open with a reply saying so, never claimed. An agent
 * that gave no report at all leaves every thread open without a reply in each:
 * the round's summary comment says so once. The agent's notes are its own
 * output: they cannot ping anyone. Pure.
 */
import type { ThreadReport } from "../agent/runner.ts";
import { threadLabel } from "../prompt/iterate-prompt.ts";
import { paragraph, root } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline } from "../render/tree/untrusted-text.ts";

export interface ThreadReply {
  readonly threadId: string;
  readonly body: string;
  readonly resolve: boolean;
}

export function threadReplies(
  threads: ReadonlyArray<{ readonly id: string }>,
  reports: readonly ThreadReport[] | undefined,
  commit: string,
  resolveAddressed: boolean,
): ThreadReply[] {
  if (reports === undefined) return [];
  const byLabel = new Map(reports.map((report) => [report.thread.trim().toUpperCase(), report]));
  return threads.map((thread, index) => {
    const report = byLabel.get(threadLabel(index));
    const note = report?.note.replace(/\s+/g, " ").trim() ?? "";
    const reply = (lead: string) =>
      toGitHubMarkdown(root(paragraph(note ? `${lead}: ` : `${lead}.`, ...untrustedInline(note))));
    if (report?.addressed)
      return {
        threadId: thread.id,
        body: reply(`Addressed in ${commit}`),
        resolve: resolveAddressed,
      };
    if (report)
      return {
        threadId: thread.id,
        body: reply(`Not changed in ${commit}`),
        resolve: false,
      };
    return {
      threadId: thread.id,
      body: `Locus pushed ${commit} but the agent did not say it addressed this thread, so it is left open for you to check.`,
      resolve: false,
    };
  });
}

/** The one sentence for the summary comment when the agent reported on none of the round's threads. */
export function unreportedThreadsNote(
  threadCount: number,
  reports: readonly ThreadReport[] | undefined,
): string {
  if (reports !== undefined || threadCount === 0) return "";
  const threads = threadCount === 1 ? "its review thread is" : `all ${threadCount} review threads are`;
  return `The agent did not report which review threads it addressed, so ${threads} left open for you to check.`;
}
