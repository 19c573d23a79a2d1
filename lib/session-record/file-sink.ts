/**
 * A record sink appending to a file synchronously, so each line is on disk before the next event.
 * The file lives in the runner's temp directory, outside every mount the sandbox makes writable:
 * the agent can neither write into nor rewrite its own record.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { RecordSink } from "./record-writer.ts";

export function createFileSink(path: string): RecordSink {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, "");
  return { append: (line) => appendFileSync(path, line) };
}
