import { inlineCode } from "./inline-code.ts";

/**
 * Number lists in command arguments: `2,1,3`, `17 15 16`, `#17, #15 #16`.
 * Each function returns the numbers, or the reason they are not acceptable
 * (a phrase that completes a usage message).
 */

export type NumbersResult =
  { readonly ok: true; readonly numbers: number[] } | { readonly ok: false; readonly reason: string };

// GitHub issue numbers are 32-bit; anything larger is a typo, and also not a safe integer to compare.
const largest = 2 ** 31 - 1;

/** Issue numbers, each optionally prefixed by `#`: at least one, none repeated. */
export function parseIssueNumbers(text: string): NumbersResult {
  const tokens = splitNumberList(text);
  if (tokens.length === 0) return { ok: false, reason: "no issue numbers were given" };
  const numbers: number[] = [];
  const seen = new Set<number>();
  for (const token of tokens) {
    const digits = token.startsWith("#") ? token.slice(1) : token;
    const value = positiveInteger(digits);
    if (value === undefined) return { ok: false, reason: `${inlineCode(token)} is not an issue number` };
    if (seen.has(value)) return { ok: false, reason: `#${value} is listed twice` };
    seen.add(value);
    numbers.push(value);
  }
  return { ok: true, numbers };
}

/** 1-based positions forming a permutation of 1..n. */
export function parsePositions(text: string): NumbersResult {
  const tokens = splitNumberList(text);
  if (tokens.length === 0) return { ok: false, reason: "no positions were given" };
  const numbers: number[] = [];
  const seen = new Set<number>();
  for (const token of tokens) {
    const value = /^0+$/.test(token) ? 0 : positiveInteger(token);
    if (value === 0) return { ok: false, reason: "positions start at 1" };
    if (value === undefined)
      return { ok: false, reason: `${inlineCode(token)} is not a position in the plan` };
    if (seen.has(value)) return { ok: false, reason: `position ${value} is listed twice` };
    seen.add(value);
    numbers.push(value);
  }
  // n distinct positive numbers are exactly 1..n when none is missing below n + 1.
  for (let position = 1; position <= numbers.length; position += 1) {
    if (!seen.has(position)) return { ok: false, reason: `position ${position} is missing` };
  }
  return { ok: true, numbers };
}

function splitNumberList(text: string): string[] {
  return text.split(/[\s,]+/).filter((token) => token !== "");
}

function positiveInteger(digits: string): number | undefined {
  if (!/^\d+$/.test(digits)) return undefined;
  const value = Number(digits);
  return value >= 1 && value <= largest ? value : undefined;
}
