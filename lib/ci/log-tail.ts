/**
 * The part of a GitHub Actions job log worth a prompt: the failed step's last
 * lines. A job log has a timestamp on every line and opens each step with
 * `##[group]Run <step>`; the step that failed ends with `##[error]…`, and only
 * cleanup follows. So the tail is the section up to the last error, without
 * timestamps, its last `maxLines` lines, each cut at `maxLineChars`.
 */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

export interface LogTail {
  readonly lines: readonly string[];
  /** Lines of the failed step left out above the tail. */
  readonly omitted: number;
}

export function failedStepTail(log: string, maxLines = 60, maxLineChars = 300): LogTail {
  const lines = log
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.replace(TIMESTAMP, ""));
  let end = lines.length;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (lines[i]?.startsWith("##[error]")) {
      end = i + 1;
      break;
    }
  }
  let start = 0;
  for (let i = end - 1; i >= 0; i -= 1) {
    if (lines[i]?.startsWith("##[group]Run ")) {
      start = i;
      break;
    }
  }
  const section = lines.slice(start, end).filter((line) => line.trim() !== "" && line !== "##[endgroup]");
  const tail = section.slice(-maxLines);
  return {
    lines: tail.map((line) => (line.length > maxLineChars ? `${line.slice(0, maxLineChars)} …` : line)),
    omitted: section.length - tail.length,
  };
}
