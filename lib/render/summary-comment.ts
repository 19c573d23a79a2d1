/**
 * A short comment of Locus's own line, then someone else's Markdown (the agent's summary) below it,
 * and a link to the round's session record when it was uploaded.
 */
import { link, paragraph, root, small } from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedMarkdown } from "./tree/untrusted-text.ts";

export function renderSummaryComment(lead: string, summary: string, recordUrl?: string): string {
  return toGitHubMarkdown(
    root(
      paragraph(lead),
      untrustedMarkdown(summary),
      recordUrl !== undefined && small(link(recordUrl, "session record")),
    ),
  );
}
