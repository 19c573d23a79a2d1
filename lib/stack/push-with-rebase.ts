/**
 * How an iterate round delivers its commit onto a branch people may push to
 * as well: a leased push, one rebase and a second push when the branch moved,
 * and the comment that explains why Locus did not push when that fails.
 * Apart from the mode because it is the "never push over others' commits"
 * rule, read on its own.
 */
import type { GitClient } from "../git/git-client.ts";
import { pushRefusalOf, type PushRefusal } from "../git/push-refusal.ts";
import { code, paragraph, plain, root, type Inline } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";

/** A failed push says why; `refusal` when GitHub refused it for a rule (a ruleset, push protection). */
export type PushOutcome = { ok: true; sha: string } | { ok: false; why: string; refusal?: PushRefusal };

/**
 * Push; if the branch moved meanwhile, rebase onto it once and push again.
 * Every push leases the head last seen, so commits someone else pushed are
 * never overwritten: the second push only fast-forwards what was fetched.
 */
export async function pushWithOneRebase(
  worktree: GitClient,
  git: GitClient,
  branch: string,
  expect: string,
): Promise<PushOutcome> {
  const first = await worktree.push(branch, { expect });
  if (first.ok) return { ok: true, sha: (await worktree.revParse("HEAD")) ?? "" };
  if (!first.rejected) {
    const refusal = pushRefusalOf(first.message);
    return { ok: false, why: `the push failed (${first.message})`, ...(refusal ? { refusal } : {}) };
  }
  await git.fetchBranches([branch]);
  const moved = (await git.revParse(git.remoteRef(branch))) ?? "";
  const rebased = await worktree.rebase(git.remoteRef(branch));
  if (!rebased.ok) {
    const files = rebased.conflicts.length > 0 ? ` in ${rebased.conflicts.join(", ")}` : "";
    return { ok: false, why: `Locus's change conflicts with the new commits${files}` };
  }
  const second = await worktree.push(branch, { expect: moved });
  if (!second.ok) return { ok: false, why: `it moved again during the retry (${second.message})` };
  return { ok: true, sha: (await worktree.revParse("HEAD")) ?? "" };
}

/** Why the branch is as it was, and how to go on. `why` is prose naming files and git's words: shown as text. */
export function movedBranchComment(branch: string, why: string, checkpoint: string | undefined): string {
  const kept: Inline[] = checkpoint
    ? [
        "Its work is on ",
        code(checkpoint),
        ": rebase that onto ",
        code(branch),
        ", resolve the conflicts and push, or",
      ]
    : ["You can"];
  return toGitHubMarkdown(
    root(
      paragraph("Locus did not push: ", code(branch), " moved while Locus worked and ", plain(why), "."),
      paragraph(
        "Locus never pushes over commits it did not make, so ",
        code(branch),
        " is as it was. ",
        ...kept,
        " comment ",
        code("/locus iterate"),
        " to have Locus start again from the branch as it is now.",
      ),
    ),
  );
}
