/**
 * Every part of a prompt has a budget and is cut explicitly, never silently:
 * the model is told what was left out and how to get it.
 */

/** A rough, conservative size measure: Claude averages about 4 characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface Truncated {
  readonly text: string;
  readonly cut: boolean;
}

/** Keeps whole lines from the start within `maxChars`, and says how many lines were cut. */
export function truncateHead(text: string, maxChars: number, what: string, hint = ""): Truncated {
  if (text.length <= maxChars) return { text, cut: false };
  const lines = text.split("\n");
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > maxChars) break;
    kept.push(line);
    size += line.length + 1;
  }
  const omitted = lines.length - kept.length;
  const suffix = hint ? ` ${hint}` : "";
  return {
    text: `${kept.join("\n")}\n[… ${what} truncated: ${omitted} more lines omitted.${suffix}]`,
    cut: true,
  };
}
