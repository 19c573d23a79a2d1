/**
 * Workflow files parsed once per text. One dispatch reads the same file for
 * its trigger, its run name, its concurrency group and its job's permissions
 * (and the reusable workflow it calls for the last two), and a test dispatches
 * the same few files hundreds of times: parsing YAML again each time was the
 * largest share of a dispatch's CPU. The parsed value is shared between
 * callers, so it is frozen: a caller reads it and never changes it.
 */
import { parse } from "yaml";

type Parsed = { readonly value: unknown } | { readonly error: unknown };

/** Enough for every workflow file a test's simulators serve; the oldest goes first. */
const KEPT = 64;
const parsed = new Map<string, Parsed>();

function frozen(value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) frozen(child);
  }
  return value;
}

function parseOnce(text: string): Parsed {
  try {
    return { value: frozen(parse(text)) };
  } catch (error) {
    return { error };
  }
}

/** What `yaml`'s `parse` returns for `text` (read-only), or throws what it throws. */
export function parseWorkflow(text: string): unknown {
  let entry = parsed.get(text);
  if (!entry) {
    entry = parseOnce(text);
    if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value ?? "");
    parsed.set(text, entry);
  }
  if ("error" in entry) throw entry.error;
  return entry.value;
}
