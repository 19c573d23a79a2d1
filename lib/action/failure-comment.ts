/** The comment a failed task leaves: what went wrong, where the work is, the end of the log, and what to do next. */
import { codeBlock, details } from "../render/markdown.ts";
import { safeToPublish } from "../render/safe-text.ts";

export interface FailureCommentInput {
  readonly reason: string;
  readonly checkpoint?: string;
  /** The repository's web address, to link the checkpoint branch. */
  readonly repositoryUrl?: string;
  readonly logTail: string;
  readonly runUrl?: string;
  /** What the agent itself said when it stopped (a declining agent's explanation), quoted; mentions defused. */
  readonly agentSaid?: string;
}

export function renderFailureComment(input: FailureCommentInput): string {
  const parts = [`**Locus could not finish this task:** ${safeToPublish(input.reason)}`];
  if (input.checkpoint) {
    const branch = input.repositoryUrl
      ? `[\`${input.checkpoint}\`](${input.repositoryUrl}/tree/${input.checkpoint})`
      : `\`${input.checkpoint}\``;
    parts.push(`The work so far is saved on ${branch}; the next attempt continues from it.`);
  }
  const said = input.agentSaid?.trim();
  if (said) {
    const quoted = safeToPublish(said.slice(0, 4_000))
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n");
    parts.push(`**What the agent said:**\n\n${quoted}`);
  }
  if (input.logTail.trim()) parts.push(details("Last lines of the agent log", codeBlock(input.logTail)));
  const run = input.runUrl ? ` ([workflow run](${input.runUrl}))` : "";
  parts.push(`Comment \`/locus run\` to try again${run}.`);
  return parts.join("\n\n");
}
