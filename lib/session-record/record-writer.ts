/**
 * Writes a session record as JSON Lines while the session runs, so a crash still leaves every
 * line up to that point. The prompts come once, first; then every agent event the runner emits
 * (model turns with usage and cost, tool calls with their parameters and results, warnings,
 * errors, the final `done`), each stamped with milliseconds since the record began. Every
 * string is masked for the run's secrets and capped, so a huge tool result cannot swell the file.
 */
import type { AgentEvent } from "../agent/events.ts";

/** Where lines go: appended one by one (a file opened outside the sandbox's writable mounts). */
export interface RecordSink {
  readonly append: (line: string) => void;
}

/** The prompt as the runner received it (see RunnerPrompt), and the task's own tool definitions. */
export interface RecordPrompts {
  readonly system: string;
  readonly context: string;
  readonly task: string;
  /** Tools of this task's mode (name, description, input schema); the runner's standard tools are not repeated. */
  readonly tools: readonly unknown[];
}

/** What a line carries, before it is numbered and stamped. */
export type RecordEntry =
  | { readonly kind: "prompts"; readonly prompts: RecordPrompts }
  | { readonly kind: "event"; readonly event: AgentEvent };

export type RecordLine = RecordEntry & { readonly seq: number; readonly atMs: number };

export interface RecordWriterOptions {
  readonly sink: RecordSink;
  /** Milliseconds; injectable so tests stamp lines deterministically. */
  readonly clock: () => number;
  /** The run's secret mask (see lib/secrets/secret-mask.ts). */
  readonly mask: (text: string) => string;
  /** Longest string kept in any field; longer ones are cut with a note of how much was dropped. */
  readonly maxStringChars?: number;
}

export interface RecordWriter {
  readonly writePrompts: (prompts: RecordPrompts) => void;
  readonly onEvent: (event: AgentEvent) => void;
}

const DEFAULT_MAX_STRING_CHARS = 16_000;

/** `text` cut to `max` characters, saying how many were left out. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`;
}

/** A copy of `value` with every string masked, then capped (mask first: a cut must not split a secret). */
function scrubValue(value: unknown, mask: (text: string) => string, max: number): unknown {
  if (typeof value === "string") return capText(mask(value), max);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, mask, max));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [mask(key), scrubValue(item, mask, max)]),
    );
  }
  return value;
}

export function createRecordWriter(options: RecordWriterOptions): RecordWriter {
  const max = options.maxStringChars ?? DEFAULT_MAX_STRING_CHARS;
  const startedAt = options.clock();
  let seq = 0;
  const write = (line: RecordEntry): void => {
    const stamped = { seq: seq++, atMs: options.clock() - startedAt, ...line };
    options.sink.append(`${JSON.stringify(scrubValue(stamped, options.mask, max))}\n`);
  };
  return {
    writePrompts: (prompts) => write({ kind: "prompts", prompts }),
    onEvent: (event) => write({ kind: "event", event }),
  };
}
