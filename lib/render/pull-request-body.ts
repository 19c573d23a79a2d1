/** The body of a PR Locus opens: `Closes #N`, what the agent did, and what it cost. */
import type { BlockContent } from "mdast";
import type { Usage } from "../agent/usage.ts";
import { hiddenMarker } from "../markers.ts";
import { formatUsd } from "./markdown.ts";
import { renderPreReviewChecks, type PreReviewChecks } from "./pre-review-checks.ts";
import {
  blockquote,
  closesIssue,
  code,
  codeBlock,
  details,
  emphasis,
  heading,
  link,
  paragraph,
  plain,
  root,
  small,
  table,
  text,
  trustedHtml,
  type Inline,
} from "./tree/nodes.ts";
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { untrustedMarkdown } from "./tree/untrusted-text.ts";
import { thousands } from "./thousands.ts";

export interface ToolCallRecord {
  readonly name: string;
  /** One line: the path, pattern or command the tool was called with. */
  readonly target: string;
  readonly ok: boolean;
}

export interface FileChange {
  readonly path: string;
  readonly additions: number;
  readonly deletions: number;
}

export interface PullRequestBodyInput {
  readonly issue: number;
  readonly summary: string;
  readonly filesChanged: readonly FileChange[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly costUsd: number;
  readonly usage: Usage;
  readonly model: string;
  /** Sprint tasks: the task PR this one is stacked on. */
  readonly stackedOn?: number;
  /** Shown when the model was not a real one (the sandbox's replay model). */
  readonly notice?: string;
  readonly runUrl?: string;
  /** The artifact page of the task's session record (docs/session-record.md). */
  readonly recordUrl?: string;
  /** What the checks before review found (dependency review, suspect files). */
  readonly checks?: PreReviewChecks;
}

const MAX_TOOL_LINES = 200;

/**
 * Built as a tree: the agent's summary, file names, tool targets and the
 * model name are text or code in it, so none can ping, close an issue or load
 * an image; the task's own `Closes #N` is the one live keyword.
 */
export function renderPullRequestBody(input: PullRequestBodyInput): string {
  const summary = untrustedMarkdown(input.summary.trim());
  const run: Inline[] = [
    ...(input.runUrl ? [" · ", link(input.runUrl, "run")] : []),
    ...(input.recordUrl ? [" · ", link(input.recordUrl, "session record")] : []),
  ];
  const tree = root(
    trustedHtml(hiddenMarker("pr", `issue=${input.issue}`)),
    paragraph(closesIssue(input.issue)),
    input.notice !== undefined &&
      blockquote(paragraph(trustedHtml("[!NOTE]"), text("\n"), plain(input.notice))),
    input.stackedOn !== undefined &&
      paragraph(`Stacked on #${input.stackedOn}: review and merge that one first.`),
    heading(2, "Summary"),
    summary.length > 0 ? summary : paragraph(emphasis("The agent gave no summary.")),
    renderFiles(input.filesChanged),
    input.checks && renderPreReviewChecks(input.checks),
    renderToolLog(input.toolCalls),
    small(plain(input.model), ` · ${renderTokens(input.usage)} · ${formatUsd(input.costUsd)}`, ...run),
  );
  return toGitHubMarkdown(tree);
}

function renderFiles(files: readonly FileChange[]): BlockContent[] {
  if (files.length === 0) return [heading(2, "Files changed"), paragraph(emphasis("None."))];
  const rows = files.map((file) => [[code(file.path)], [`+${file.additions}`], [`−${file.deletions}`]]);
  return [
    heading(2, "Files changed"),
    table([null, "right", "right"], [[["File"], ["Added"], ["Removed"]], ...rows]),
  ];
}

function renderToolLog(calls: readonly ToolCallRecord[]): BlockContent[] {
  const shown = calls.slice(0, MAX_TOOL_LINES).map((call) => {
    const mark = call.ok ? "✓" : "✗";
    return `${mark} ${call.name} ${call.target.replace(/\s+/g, " ").slice(0, 160)}`;
  });
  if (calls.length > MAX_TOOL_LINES) shown.push(`… ${calls.length - MAX_TOOL_LINES} more calls not shown`);
  return details(`Agent log (${calls.length} tool calls)`, codeBlock(shown.join("\n") || "(no tool calls)"));
}

/** Every input token the model read (cached or not), and how many came from the prompt cache. */
function renderTokens(usage: Usage): string {
  const count = thousands;
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const cached = usage.cacheReadTokens > 0 ? ` (${count(usage.cacheReadTokens)} from cache)` : "";
  return `${count(input)} in${cached} / ${count(usage.outputTokens)} out tokens`;
}
