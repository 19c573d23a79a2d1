/** The comment a failed task leaves: what went wrong, where the work is, the end of the log, and what to do next. */
import {
  blockquote,
  code,
  codeBlock,
  details,
  link,
  paragraph,
  root,
  strong,
  type Inline,
} from "./tree/nodes.ts";
import { pushRefusalSection, type RefusedPush } from "./push-refusal-section.ts";
import { setupFailureSection, type SetupFailure } from "./setup-section.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedInline, untrustedMarkdown } from "./tree/untrusted-text.ts";

export interface FailureCommentInput {
  readonly reason: string;
  readonly checkpoint?: string;
  /** The repository's web address, to link the checkpoint branch. */
  readonly repositoryUrl?: string;
  readonly logTail: string;
  readonly runUrl?: string;
  /** What the agent itself said when it stopped (a declining agent's explanation), quoted; mentions defused. */
  readonly agentSaid?: string;
  /** GitHub refused the push for a rule (a ruleset, push protection): which, and what to change. */
  readonly pushRefusal?: RefusedPush;
  /** A setup command failed before the agent started: which, how, and the end of its output. */
  readonly setupFailure?: SetupFailure;
}

export function renderFailureComment(input: FailureCommentInput): string {
  const branch: Inline | undefined = input.checkpoint
    ? input.repositoryUrl
      ? link(`${input.repositoryUrl}/tree/${encodeURI(input.checkpoint)}`, code(input.checkpoint))
      : code(input.checkpoint)
    : undefined;
  const said = input.agentSaid?.trim();
  const run: Inline[] = input.runUrl ? [" (", link(input.runUrl, "workflow run"), ")"] : [];
  return toGitHubMarkdown(
    root(
      paragraph(
        strong("Locus could not finish this task:"),
        " ",
        ...untrustedInline(input.reason.replace(/\s+/g, " ")),
      ),
      input.pushRefusal && pushRefusalSection(input.pushRefusal),
      input.setupFailure && setupFailureSection(input.setupFailure),
      branch && paragraph("The work so far is saved on ", branch, "; the next attempt continues from it."),
      said
        ? [paragraph(strong("What the agent said:")), blockquote(...untrustedMarkdown(said.slice(0, 4_000)))]
        : undefined,
      input.logTail.trim() !== "" && details("Last lines of the agent log", codeBlock(input.logTail)),
      paragraph("Comment ", code("/locus run"), " to try again", ...run, "."),
    ),
  );
}
