const maxShown = 60;

/**
 * User text shown inside a code span in a reply: on one line, shortened, and
 * delimited by more backticks than it contains so it cannot break out.
 */
export function inlineCode(text: string): string {
  const short = text.length > maxShown ? `${text.slice(0, maxShown - 1)}…` : text;
  const flat = short.replace(/\s+/g, " ");
  let longest = 0;
  let run = 0;
  for (const char of flat) {
    run = char === "`" ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const ticks = "`".repeat(longest + 1);
  const pad = longest > 0 ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}
