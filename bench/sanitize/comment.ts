/**
 * A 10 KB issue comment of the kind Locus quotes in prompts: prose with emphasis and links, lists,
 * a fenced log, inline code, a table, a `<details>` block, an image, and a few hidden constructs
 * (a comment, a hidden `<div>`, a reference definition nothing uses).
 */
const SECTION = [
  "## Steps to reproduce",
  "",
  "Run `npm test` on a clean checkout and look at the **second** failure; see [the guide](https://example.com/guide) and #12.",
  "",
  "- the parser drops the *last* line when the file has no trailing newline",
  "- `parseConfig()` returns `undefined` instead of throwing",
  "",
  "```text",
  "FAIL test/config.test.ts > parses the example",
  "AssertionError: expected undefined to deeply equal { version: 2 }",
  "```",
  "",
  "| input | expected | actual |",
  "| ----- | -------- | ------ |",
  "| `a`   | 1        | 2      |",
  "",
  "<details><summary>Full log</summary>",
  "",
  "The log is long; the interesting part is the stack trace below the summary line.",
  "",
  "</details>",
  "",
  "![screenshot](https://example.com/shot.png) <!-- reviewer: ignore this -->",
  '<div hidden>not shown</div> and <span title="hover">visible</span>.',
  "",
  "[unused]: https://example.com/unused",
  "",
].join("\n");

export function comment(size = 10 * 1024): string {
  let text = "";
  while (text.length < size) text += SECTION;
  return text.slice(0, size);
}
