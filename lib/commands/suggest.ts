import { commandNames } from "./command.ts";
import type { CommandName } from "./command.ts";

const maxDistance = 2;

/**
 * The command the user most likely meant by an unknown verb: the single
 * closest one within edit distance 2 (a swap of neighbours counts as one
 * edit), and no further than half the typed word's length, so that short
 * words like `ok` suggest nothing.
 */
export function suggestCommand(word: string): CommandName | undefined {
  const typed = word.toLowerCase();
  const limit = Math.min(maxDistance, Math.floor(typed.length / 2));
  let best: CommandName | undefined;
  let bestDistance = limit + 1;
  let tied = false;
  for (const name of commandNames) {
    const distance = editDistance(typed, name, limit);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
      tied = false;
    } else if (distance === bestDistance) {
      tied = true;
    }
  }
  return tied ? undefined : best;
}

/** Optimal string alignment distance, or `limit + 1` once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length] ?? 0, limit + 1);
}
