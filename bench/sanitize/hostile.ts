/**
 * Documents shaped to make a Markdown parser slow: each is what a pasted log, a generated table or
 * an attacker can produce, and each once took the sanitiser seconds to minutes.
 */
import { comment } from "./comment.ts";

export interface HostileDocument {
  readonly name: string;
  readonly text: string;
}

export function hostileDocuments(): HostileDocument[] {
  const megabyte = 1024 * 1024;
  return [
    { name: "a 1 MB document (the 10 KB comment repeated)", text: comment(megabyte) },
    { name: "20,000 nested quotes (`>>>…`)", text: `${">".repeat(20_000)} [x](y)` },
    { name: "20,000 nested list items (`- - - …`)", text: `${"- ".repeat(20_000)}[x](y)` },
    { name: "60 KB of emphasis delimiters (`*_*_…`)", text: `${"*_".repeat(30_000)}[x](y)` },
  ];
}
