/**
 * Nothing is lost: unfinished work goes to `locus/wip/issue-<N>` as one
 * commit whose message says why it stopped and what was done, and the next
 * attempt starts from it (docs/contracts.md "Branches").
 */
import type { GitClient, WorktreeFiles } from "../git/git-client.ts";
import { wipBranch } from "../naming/branches.ts";
import type { Checkpoint } from "../prompt/task-prompt.ts";

const STOPPED = "Stopped: ";
const SUMMARY = "Done so far: ";

function checkpointMessage(
  issue: { number: number; title: string },
  reason: string,
  summary: string,
): string {
  const title = issue.title.replace(/\s+/g, " ").trim();
  const lines = [`wip: ${title} (#${issue.number})`, "", `${STOPPED}${reason.replace(/\s+/g, " ")}`];
  if (summary.trim()) lines.push("", `${SUMMARY}${summary.trim()}`);
  return lines.join("\n");
}

export function parseCheckpoint(branch: string, message: string): Checkpoint {
  const stopped = message.split("\n").find((line) => line.startsWith(STOPPED));
  const summaryAt = message.indexOf(SUMMARY);
  return {
    branch,
    reason: stopped ? stopped.slice(STOPPED.length) : "unknown",
    summary: summaryAt >= 0 ? message.slice(summaryAt + SUMMARY.length).trim() : "",
  };
}

export interface SaveCheckpointInput {
  readonly worktree: GitClient;
  readonly issue: { number: number; title: string };
  readonly reason: string;
  readonly summary: string;
  /** The commit the attempt started from: nothing beyond it means nothing to save. */
  readonly startSha: string;
  /** The wip branch's sha on the remote when the attempt started ("" when absent). */
  readonly remoteWip: string;
  /** Untracked scratch files and build output to keep out of the checkpoint. */
  readonly leaveOut?: readonly string[];
  /** The worktree as listed just before, when `leaveOut` was worked out (`GitClient.stageAll`). */
  readonly listed?: WorktreeFiles;
}

/** Commits what is in the worktree and pushes it to the wip branch; answers the branch, or undefined when there was nothing. */
export async function saveCheckpoint(input: SaveCheckpointInput): Promise<string | undefined> {
  const { worktree } = input;
  // A file withheld for a secret stays out here too; the delivery that follows names it.
  if ((await worktree.stageAll(input.leaveOut ?? [], input.listed)).staged) {
    await worktree.commit(checkpointMessage(input.issue, input.reason, input.summary));
  }
  const head = await worktree.revParse("HEAD");
  const branch = wipBranch(input.issue.number);
  // Nothing new: an earlier checkpoint, if any, still holds the work.
  if (head === null || head === input.startSha) return input.remoteWip ? branch : undefined;
  const pushed = await worktree.push(branch, { expect: input.remoteWip });
  if (!pushed.ok) throw new Error(`Could not save the work to ${branch}: ${pushed.message}`);
  return branch;
}
