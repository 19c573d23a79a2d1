/**
 * Rebases a chain of stacked pull request branches, lowest first: each
 * branch's own commits (after `upstream`) are replayed onto `onto` with
 * `git rebase --onto`, the next branch's own commits are those after this
 * branch's old head, and they go onto its new head. A stop on a conflict is
 * handed to `resolve` (the agent); a conflict it cannot resolve aborts the
 * rebase and leaves that branch and the ones above it untouched. Each
 * rebased branch is pushed with a lease on the head Locus read, so commits
 * pushed meanwhile are never overwritten.
 */
import type { GitClient } from "../git/git-client.ts";
import { rebaseResolving, type RebaseStop } from "./rebase-resolving.ts";

export interface StackBranch {
  readonly pr: number;
  readonly branch: string;
}

export interface ConflictStop extends RebaseStop {
  readonly entry: StackBranch;
}

export type RestackOutcome =
  | { readonly kind: "rebased"; readonly entry: StackBranch; readonly from: string; readonly to: string }
  | { readonly kind: "unchanged"; readonly entry: StackBranch; readonly at: string }
  | { readonly kind: "conflict"; readonly entry: StackBranch; readonly files: readonly string[] }
  | { readonly kind: "push-rejected"; readonly entry: StackBranch; readonly message: string };

/** `first.upstream`: where the lowest branch's own commits start; `first.onto`: what they go onto. */
export async function restack(
  git: GitClient,
  worktree: GitClient,
  chain: readonly StackBranch[],
  first: { readonly upstream: string; readonly onto: string },
  resolve: (stop: ConflictStop) => Promise<boolean>,
): Promise<RestackOutcome[]> {
  const outcomes: RestackOutcome[] = [];
  let upstream = first.upstream;
  let onto = first.onto;
  for (const entry of chain) {
    await git.fetchBranches([entry.branch]);
    const head = (await git.revParse(git.remoteRef(entry.branch))) ?? "";
    await worktree.checkoutBranch(entry.branch, head);
    const replayed = await rebaseResolving(worktree, { onto, upstream }, (stop) =>
      resolve({ ...stop, entry }),
    );
    if (!replayed.ok) {
      outcomes.push({ kind: "conflict", entry, files: replayed.files });
      return outcomes;
    }
    const rebased = (await worktree.revParse("HEAD")) ?? "";
    if (rebased === head) {
      outcomes.push({ kind: "unchanged", entry, at: head });
    } else {
      const pushed = await worktree.push(entry.branch, { expect: head });
      if (!pushed.ok) {
        outcomes.push({ kind: "push-rejected", entry, message: pushed.message });
        return outcomes;
      }
      outcomes.push({ kind: "rebased", entry, from: head, to: rebased });
    }
    upstream = head;
    onto = rebased;
  }
  return outcomes;
}
