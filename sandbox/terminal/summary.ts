/**
 * The end of a demo: the final GitHub state in the terminal, and a markdown
 * report of everything Locus wrote (PR bodies and comments, as they stand).
 */
import { writeFile } from "node:fs/promises";
import type { CommentState, IssueState, PullState, Reader } from "../scenario/github-state.ts";

export interface FinalState {
  readonly issues: readonly IssueState[];
  readonly pulls: readonly PullState[];
  readonly comments: readonly CommentState[];
}

export async function readFinalState(read: Reader): Promise<FinalState> {
  const [issues, pulls, comments] = await Promise.all([read.issues(), read.pulls(), read.comments()]);
  return { issues, pulls, comments };
}

export function renderSummary(state: FinalState, bot: string): string[] {
  const lines: string[] = ["Issues"];
  for (const issue of state.issues.filter((candidate) => !candidate.isPull)) {
    const milestone = issue.milestone ? ` [${issue.milestone}]` : "";
    lines.push(
      `  #${issue.number} ${issue.title}${milestone} · ${issue.state} · ${issue.labels.join(", ") || "no labels"} · ${issue.comments} comments`,
    );
  }
  lines.push("Pull requests");
  for (const pull of state.pulls) {
    // The simulator diffs a merged PR against its base, which now holds it: no stats to show.
    const stats = pull.merged
      ? "merged"
      : `${pull.state} · +${pull.additions} −${pull.deletions} in ${pull.changedFiles} files, ${pull.commits} commits`;
    lines.push(`  #${pull.number} ${pull.title} · ${pull.head} → ${pull.base} · ${stats}`);
  }
  const byLocus = state.comments.filter((comment) => comment.author === bot).length;
  lines.push(`Comments: ${byLocus} by Locus, ${state.comments.length - byLocus} by people`);
  return lines;
}

export function renderReport(state: FinalState, bot: string, header: string): string {
  const sections = [`# What Locus wrote\n\n${header}`];
  for (const issue of state.issues) {
    const pull = state.pulls.find((candidate) => candidate.number === issue.number);
    const comments = state.comments.filter(
      (comment) => comment.issue === issue.number && comment.author === bot,
    );
    if (!pull && comments.length === 0) continue;
    const kind = pull
      ? `Pull request #${pull.number} (${pull.head} → ${pull.base})`
      : `Issue #${issue.number}`;
    const parts = [
      `## ${kind}: ${issue.title}`,
      `Labels: ${issue.labels.map((label) => `\`${label}\``).join(", ") || "none"}`,
    ];
    if (pull) parts.push(`### Body\n\n${pull.body}`);
    comments.forEach((comment, index) => parts.push(`### Comment ${index + 1}\n\n${comment.body}`));
    sections.push(parts.join("\n\n"));
  }
  return `${sections.join("\n\n---\n\n")}\n`;
}

export async function writeReport(
  path: string,
  state: FinalState,
  bot: string,
  header: string,
): Promise<void> {
  await writeFile(path, renderReport(state, bot, header));
}
