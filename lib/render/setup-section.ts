/**
 * What the issue is told about the setup that ran before the agent: one line saying which
 * commands ran (configured or the repository's default), and, when one failed, that command and
 * the end of its output. Commands come from the repository and output from its tools, so both
 * land only in code nodes, never as Markdown.
 */
import type { BlockContent } from "mdast";
import type { SetupPlan } from "../setup/setup-plan.ts";
import { code, codeBlock, paragraph, root, strong, type Inline } from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";

/** Lines of the log tail shown; the full output is in the run's log. */
export const SETUP_FAILURE_TAIL_LINES = 40;

function commandList(commands: readonly string[]): Inline[] {
  return commands.flatMap((command, index) => (index === 0 ? [code(command)] : [", ", code(command)]));
}

/** The status comment's line about setup (its "Setup" detail), or none when nothing runs. */
export function setupRanLine(plan: SetupPlan): string | undefined {
  if (plan.source === "none") return undefined;
  const origin: Inline[] =
    plan.source === "configured"
      ? [" (from ", code("setup.commands"), ")"]
      : [" (the default for the lockfile found)"];
  return toGitHubMarkdown(root(paragraph(...commandList(plan.commands), ...origin))).trim();
}

export interface SetupFailure {
  readonly command: string;
  readonly exitCode: number;
  readonly timedOut: boolean;
  readonly logTail: string;
}

/** The failure: the command that failed, how, and the last lines of its output. */
export function setupFailureSection(failure: SetupFailure): BlockContent[] {
  const how = failure.timedOut ? "timed out" : `exited with ${failure.exitCode}`;
  const lines = failure.logTail.trimEnd().split("\n").slice(-SETUP_FAILURE_TAIL_LINES).join("\n");
  return [
    paragraph(strong("Setup failed"), " before the agent started: ", code(failure.command), ` ${how}.`),
    ...(lines === "" ? [] : [codeBlock(lines)]),
  ];
}
