/**
 * The job summary (`GITHUB_STEP_SUMMARY`): a table of tasks, then each task's
 * tool calls as compact cards. GitHub drops a step's summary whole when it is
 * over 1 MiB, so the cards stop before that, pointing to the run's log.
 * https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/workflow-commands-for-github-actions#step-isolation-and-limits
 */
import type { BlockContent } from "mdast";
import { formatUsd } from "../render/markdown.ts";
import {
  code,
  codeBlock,
  details,
  heading,
  link,
  list,
  paragraph,
  plain,
  root,
  strong,
  table,
  type Inline,
} from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline, untrustedMarkdown } from "../render/tree/untrusted-text.ts";
import type { ModeResult, TaskReport } from "./task-report.ts";
import type { ToolCard } from "./tool-cards.ts";
import type { RefusedHost, SandboxKind } from "../sandbox/sandbox.ts";
import { UNSANDBOXED_NOTE } from "../status/status-comment.ts";

/** What the run's sandbox did: whether there was one, and the connections its proxy refused. */
export interface SandboxReport {
  readonly kind: SandboxKind;
  readonly refused: readonly RefusedHost[];
}

const MAX_CARDS = 100;
/** GitHub's limit is 1 MiB per step; the margin leaves room for the closing line. */
export const MAX_SUMMARY_BYTES = 1024 * 1024 - 4096;

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function statusCell(task: TaskReport): Inline[] {
  return task.reason ? [`${task.status}: `, plain(task.reason.slice(0, 160))] : [task.status];
}

type Item = Parameters<typeof list>[0][number];

/** One tool call: a line of text, and its diff (when it edited) collapsed below it. */
function card(item: ToolCard): Item {
  const head = plain(`${item.ok ? "✓" : "✗"} ${item.summary} · ${duration(item.durationMs)}`);
  return item.diff ? { blocks: [paragraph(head), ...details("diff", codeBlock(item.diff, "diff"))] } : [head];
}

function bytes(markdown: string): number {
  return Buffer.byteLength(markdown, "utf8") + 2;
}

/**
 * Built as one Markdown tree: titles, reasons, tool summaries and hosts are text or code, so
 * nothing the agent or a repository wrote can act in it. `logUrl`: the run's page, where the full
 * log of every tool call stays; `warning`: a line in bold after the note (hooks that never ran).
 */
export function renderJobSummary(
  mode: string,
  result: ModeResult,
  sandbox?: SandboxReport,
  logUrl?: string,
  warning?: string,
): string {
  const blocks: BlockContent[] = [heading(2, `Locus ${mode}`)];
  if (result.note) blocks.push(...untrustedMarkdown(result.note));
  if (warning) blocks.push(paragraph(strong("Warning:"), " ", ...untrustedInline(warning)));
  if (sandbox) blocks.push(...sandboxSection(sandbox));
  if (result.tasks.length > 0) {
    const rows = result.tasks.map((task): Inline[][] => [
      [`#${task.issue} `, plain(task.title)],
      statusCell(task),
      [task.pr ? link(task.pr.url, `#${task.pr.number}`) : "—"],
      [duration(task.durationMs)],
      [
        `${task.usage.inputTokens + task.usage.cacheReadTokens + task.usage.cacheWriteTokens} in / ${task.usage.outputTokens} out`,
      ],
      [formatUsd(task.costUsd)],
    ]);
    const header = ["Task", "Status", "PR", "Duration", "Tokens", "Cost"].map((name) => [name]);
    blocks.push(table([null, null, null, "right", "right", "right"], [header, ...rows]));
  }
  const done = (): string => `${toGitHubMarkdown(root(...blocks))}\n`;
  let used = bytes(done());
  for (const task of result.tasks) {
    if (task.cards.length === 0) continue;
    const title = heading(3, `#${task.issue} tool calls`);
    const shown: Item[] = [];
    used += bytes(toGitHubMarkdown(root(title)));
    for (const item of task.cards.slice(0, MAX_CARDS)) {
      const next = card(item);
      used += bytes(toGitHubMarkdown(root(list([next]))));
      if (used > MAX_SUMMARY_BYTES) break;
      shown.push(next);
    }
    if (used > MAX_SUMMARY_BYTES) {
      if (shown.length > 0) blocks.push(title, list(shown));
      blocks.push(
        paragraph(
          "The summary stops here: GitHub drops a job summary over 1 MiB. Every tool call is in ",
          logUrl ? link(logUrl, "the run's log") : "the run's log",
          ".",
        ),
      );
      return done();
    }
    if (task.cards.length > MAX_CARDS) shown.push([`… ${task.cards.length - MAX_CARDS} more tool calls`]);
    blocks.push(title, list(shown));
  }
  return done();
}

function sandboxSection(sandbox: SandboxReport): BlockContent[] {
  if (sandbox.kind === "off") return untrustedMarkdown(UNSANDBOXED_NOTE);
  if (sandbox.refused.length === 0) return [];
  const rows = sandbox.refused.map((entry): Inline[][] => [[code(entry.host)], [String(entry.count)]]);
  return [
    paragraph(
      "Connections the sandbox refused (add a host to ",
      code("sandbox.network.allow"),
      " to let it through):",
    ),
    table([null, "right"], [[["Host"], ["Refused"]], ...rows]),
  ];
}
