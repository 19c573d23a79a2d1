/**
 * Where an attempt starts (docs/contracts.md "Branches", recovery from
 * saved work): a saved checkpoint — rebased after checkout onto the branch it
 * would start from when that moved since the work was saved — else the task's
 * existing branch (a retry updates it), else the parent (the base branch, or
 * the previous sprint task's branch).
 */
import type { GitClient } from "../git/git-client.ts";
import { wipBranch } from "../naming/branches.ts";
import type { Checkpoint } from "../prompt/task-prompt.ts";
import { parseCheckpoint } from "./checkpoint.ts";

export interface TaskStart {
  /** The ref the work tree is reset to. */
  readonly ref: string;
  /** Where the delivered commit goes on top of: the checkpoint's commits are folded into it. */
  readonly deliverFrom: string;
  readonly checkpoint?: Checkpoint;
  /** Set when the checkpoint does not build on `deliverFrom` (its parent moved): rebase onto it after checkout. */
  readonly rebaseOnto?: string;
  /** Remote shas seen now, for leases ("" when the branch does not exist). */
  readonly remoteBranch: string;
  readonly remoteWip: string;
}

export interface TaskStartInput {
  readonly git: GitClient;
  readonly issue: number;
  readonly branch: string;
  /** The remote ref a fresh attempt starts from. */
  readonly parentRef: string;
  readonly useCheckpoint: boolean;
}

export async function findTaskStart(input: TaskStartInput): Promise<TaskStart> {
  const { git, branch } = input;
  const wip = wipBranch(input.issue);
  const remote = await git.remoteBranches([branch, wip]);
  const remoteBranch = remote.get(branch) ?? "";
  const remoteWip = remote.get(wip) ?? "";
  await git.fetchBranches([...remote.keys()]);
  const deliverFrom = remoteBranch ? git.remoteRef(branch) : input.parentRef;
  if (input.useCheckpoint && remoteWip) {
    const ref = git.remoteRef(wip);
    const checkpoint = parseCheckpoint(wip, await git.commitMessage(ref));
    const builds = await git.isAncestor(deliverFrom, ref);
    return {
      ref,
      deliverFrom,
      checkpoint,
      ...(builds ? {} : { rebaseOnto: deliverFrom }),
      remoteBranch,
      remoteWip,
    };
  }
  return { ref: deliverFrom, deliverFrom, remoteBranch, remoteWip };
}
