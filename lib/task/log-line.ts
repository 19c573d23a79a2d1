/**
 * One line of the job log that carries someone else's text (the agent's
 * words, a file name, repository data). The runner reads every line the
 * Action prints and obeys any that starts, after blanks, with a workflow
 * command (`::`, or the older `##[`): `::stop-commands::` from the agent
 * would make it ignore the `::add-mask::` of a token that arrives later
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands).
 * So line breaks of every kind become `⏎`, and a line that would start a
 * command gets a visible `›` in front.
 */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
const COMMAND_START = /^\s*(?:::|##\[)/;

export function logLine(text: string): string {
  const line = text.replace(LINE_BREAKS, " ⏎ ");
  return COMMAND_START.test(line) ? `› ${line}` : line;
}
