/** A short comment of Locus's own line, then someone else's Markdown (the agent's summary) below it. */
import { paragraph, root } from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedMarkdown } from "./tree/untrusted-text.ts";

export function renderSummaryComment(lead: string, summary: string): string {
  return toGitHubMarkdown(root(paragraph(lead), untrustedMarkdown(summary)));
}
