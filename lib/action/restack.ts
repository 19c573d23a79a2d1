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
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GitClient, RebaseStep } from "../git/git-client.ts";
import { hasConflictMarkers, type ConflictFile } from "../prompt/rebase-conflict-prompt.ts";

export interface StackBranch {
  readonly pr: number;
  readonly branch: string;
}

export interface ConflictStop {
  readonly entry: StackBranch;
  readonly onto: string;
  readonly upstream: string;
  readonly commit: { readonly sha: string; readonly message: string };
  readonly files: readonly ConflictFile[];
}

export type RestackOutcome =
  | { readonly kind: "rebased"; readonly entry: StackBranch; readonly from: string; readonly to: string }
  | { readonly kind: "unchanged"; readonly entry: StackBranch; readonly at: string }
  | { readonly kind: "conflict"; readonly entry: StackBranch; readonly files: readonly string[] }
  | { readonly kind: "push-rejected"; readonly entry: StackBranch; readonly message: string };

const MAX_STOPS = 20;

async function conflictFiles(worktree: GitClient, paths: readonly string[]): Promise<ConflictFile[]> {
  return Promise.all(
    paths.map(async (path) => ({
      path,
      text: await readFile(join(worktree.cwd, path), "utf8").catch(() => ""),
    })),
  );
}

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
    let step: RebaseStep = await worktree.rebaseOnto(onto, upstream);
    let stops = 0;
    let failed: readonly string[] | undefined;
    while (step.state === "conflict") {
      stops += 1;
      const files = await conflictFiles(worktree, step.files);
      const resolved =
        stops <= MAX_STOPS && (await resolve({ entry, onto, upstream, commit: step.commit, files }));
      const after = await conflictFiles(worktree, step.files);
      if (!resolved || after.some((file) => hasConflictMarkers(file.text))) {
        failed = step.files;
        break;
      }
      step = await worktree.rebaseContinue();
    }
    if (failed) {
      await worktree.rebaseAbort();
      outcomes.push({ kind: "conflict", entry, files: failed });
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
