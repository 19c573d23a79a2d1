/** The job summary (`GITHUB_STEP_SUMMARY`): a table of tasks, then each task's tool calls as compact cards. */
import { codeBlock, details, formatUsd, tableCell } from "../render/markdown.ts";
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

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function statusCell(task: TaskReport): string {
  const reason = task.reason ? `: ${tableCell(task.reason).slice(0, 160)}` : "";
  return `${task.status}${reason}`;
}

function card(item: ToolCard): string {
  const head = `${item.ok ? "✓" : "✗"} ${item.summary.replace(/\s+/g, " ")} · ${duration(item.durationMs)}`;
  return item.diff ? details(tableCell(head), codeBlock(item.diff, "diff")) : `- ${head}`;
}

export function renderJobSummary(mode: string, result: ModeResult, sandbox?: SandboxReport): string {
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
  for (const task of result.tasks) {
    if (task.cards.length === 0) continue;
    const shown = task.cards.slice(0, MAX_CARDS).map(card);
    if (task.cards.length > MAX_CARDS) shown.push(`- … ${task.cards.length - MAX_CARDS} more tool calls`);
    parts.push(`### #${task.issue} tool calls\n\n${shown.join("\n")}`);
  }
  return `${parts.join("\n\n")}\n`;
}

function sandboxSection(sandbox: SandboxReport): string[] {
  if (sandbox.kind === "off") return [UNSANDBOXED_NOTE];
  if (sandbox.refused.length === 0) return [];
  const rows = sandbox.refused.map((entry) => `| \`${tableCell(entry.host)}\` | ${entry.count} |`);
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
