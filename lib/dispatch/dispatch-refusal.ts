/**
 * A dispatch GitHub refuses for good (no workflow file, no
 * `workflow_dispatch` trigger, inputs the workflow does not declare, a missing
 * permission) fails the same way every time it is sent again. So it is told
 * on the issue once, with GitHub's own words and what to change, and never
 * retried; anything else (rate limits, server errors) is not a refusal.
 * https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event
 */

/** GitHub caps a dispatch's inputs at 65,535 characters in all; the rest of Locus's inputs are short. */
export const MAX_COMMAND_CHARS = 60_000;

export interface RefusedDispatch {
  readonly status: number;
  /** GitHub's message, as it answered. */
  readonly detail: string;
}

/** What to tell the issue about a refused dispatch, or undefined when the failure may pass on its own. */
export function refusalText(refused: RefusedDispatch, workflow: string, ref: string): string | undefined {
  const file = `\`.github/workflows/${workflow}\``;
  const github = `GitHub answered ${refused.status}: “${refused.detail.trim()}”`;
  const done = "Nothing was started; once it is fixed, ask again.";
  if (refused.status === 404)
    return `GitHub refused to start the Locus workflow: this repository has no ${file} on \`${ref}\` (${github}). Add it from the Locus README, or set \`workflow\` in \`.github/locus.yml\` to the file you use. ${done}`;
  if (refused.status === 403 && !/rate limit/i.test(refused.detail))
    return `GitHub refused to start the Locus workflow: the Locus app may not run workflows here (${github}). An owner must grant the app \`actions: write\` (accept its updated permissions in the repository's installation settings). ${done}`;
  if (refused.status !== 422) return undefined;
  const unexpected = /Unexpected inputs provided: \[(.*)\]/.exec(refused.detail);
  if (unexpected)
    return `GitHub refused to start the Locus workflow: ${file} has no input ${(unexpected[1] ?? "").replace(/"/g, "`")} (${github}). Update it from the Locus README. ${done}`;
  if (/workflow_dispatch/.test(refused.detail))
    return `GitHub refused to start the Locus workflow: ${file} has no \`workflow_dispatch\` trigger (${github}). Update it from the Locus README. ${done}`;
  return `GitHub refused to start the Locus workflow (${github}). Check ${file} against the Locus README. ${done}`;
}

export function commandTooLongText(length: number): string {
  return `Not started: the text after the command is ${length.toLocaleString("en-US")} characters, and Locus passes at most ${MAX_COMMAND_CHARS.toLocaleString("en-US")} to its workflow (GitHub caps a run's inputs at 65,535). Shorten it, or put the detail in the issue's body and refer to it.`;
}
