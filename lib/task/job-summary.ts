/**
 * The job summary (`GITHUB_STEP_SUMMARY`): a table of tasks, then each task's
 * tool calls as compact cards. GitHub drops a step's summary whole when it is
 * over 1 MiB, so the cards stop before that, pointing to the run's log.
 * https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/workflow-commands-for-github-actions#step-isolation-and-limits
 */
import { codeBlock, codeCell, details, formatUsd, tableCell } from "../render/markdown.ts";
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

function statusCell(task: TaskReport): string {
  const reason = task.reason ? `: ${tableCell(task.reason.slice(0, 160))}` : "";
  return `${task.status}${reason}`;
}

function card(item: ToolCard): string {
  const head = `${item.ok ? "✓" : "✗"} ${item.summary.replace(/\s+/g, " ")} · ${duration(item.durationMs)}`;
  return item.diff ? details(head, codeBlock(item.diff, "diff")) : `- ${tableCell(head)}`;
}

function bytes(parts: readonly string[]): number {
  return parts.reduce((sum, part) => sum + Buffer.byteLength(part, "utf8") + 2, 0);
}

/** `logUrl`: the run's page, where the full log of every tool call stays. */
export function renderJobSummary(
  mode: string,
  result: ModeResult,
  sandbox?: SandboxReport,
  logUrl?: string,
): string {
  const parts = [`## Locus ${mode}`];
  if (result.note) parts.push(result.note);
  if (sandbox) parts.push(...sandboxSection(sandbox));
  if (result.tasks.length > 0) {
    const rows = result.tasks.map((task) => {
      const pr = task.pr ? `[#${task.pr.number}](${task.pr.url})` : "—";
      const tokens = `${task.usage.inputTokens + task.usage.cacheReadTokens + task.usage.cacheWriteTokens} in / ${task.usage.outputTokens} out`;
      return `| #${task.issue} ${tableCell(task.title)} | ${statusCell(task)} | ${pr} | ${duration(task.durationMs)} | ${tokens} | ${formatUsd(task.costUsd)} |`;
    });
    parts.push(
      [
        "| Task | Status | PR | Duration | Tokens | Cost |",
        "| --- | --- | --- | ---: | ---: | ---: |",
        ...rows,
      ].join("\n"),
    );
  }
  let used = bytes(parts);
  for (const task of result.tasks) {
    if (task.cards.length === 0) continue;
    const heading = `### #${task.issue} tool calls\n`;
    const shown: string[] = [];
    used += Buffer.byteLength(heading, "utf8") + 2;
    for (const item of task.cards.slice(0, MAX_CARDS)) {
      const line = card(item);
      used += Buffer.byteLength(line, "utf8") + 1;
      if (used > MAX_SUMMARY_BYTES) break;
      shown.push(line);
    }
    if (used > MAX_SUMMARY_BYTES) {
      const where = logUrl ? `[the run's log](${logUrl})` : "the run's log";
      if (shown.length > 0) parts.push(`${heading}\n${shown.join("\n")}`);
      parts.push(
        `The summary stops here: GitHub drops a job summary over 1 MiB. Every tool call is in ${where}.`,
      );
      return `${parts.join("\n\n")}\n`;
    }
    if (task.cards.length > MAX_CARDS) shown.push(`- … ${task.cards.length - MAX_CARDS} more tool calls`);
    parts.push(`${heading}\n${shown.join("\n")}`);
  }
  return `${parts.join("\n\n")}\n`;
}

function sandboxSection(sandbox: SandboxReport): string[] {
  if (sandbox.kind === "off") return [UNSANDBOXED_NOTE];
  if (sandbox.refused.length === 0) return [];
  const rows = sandbox.refused.map((entry) => `| ${codeCell(entry.host)} | ${entry.count} |`);
  return [
    [
      "Connections the sandbox refused (add a host to `sandbox.network.allow` to let it through):",
      "",
      "| Host | Refused |",
      "| --- | ---: |",
      ...rows,
    ].join("\n"),
  ];
}
