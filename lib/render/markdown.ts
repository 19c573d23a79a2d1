/** Small helpers for GitHub-flavoured markdown written by Locus. */
import { plain } from "./tree/nodes.ts";
import { toTableCellMarkdown } from "./tree/serialize.ts";
import { untrustedInline } from "./tree/untrusted-text.ts";

/** Text shown as written in a table cell, on one line: nothing in it can break the row, ping or close. */
export function tableCell(text: string): string {
  return toTableCellMarkdown([plain(text.trim())]);
}

/** Someone else's Markdown on one line (a list item, a sentence, a cell): code spans kept, the rest text. */
export function untrustedLine(markdown: string): string {
  return toTableCellMarkdown(untrustedInline(markdown.replace(/\s+/g, " ").trim()));
}

/** A fenced block whose fence is longer than any backtick run inside the text. */
export function codeBlock(text: string, language = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

export function formatUsd(amount: number): string {
  return `$${amount.toFixed(amount < 1 ? 4 : 2)}`;
}
