/**
 * One stepwise rebase whose conflicts go to a resolver (the agent): each stop
 * is handed over with the conflicting files, both sides and the commit being
 * replayed; the rebase goes on only when the resolver says it is done and no
 * conflict marker is left. A conflict it cannot resolve aborts the rebase, so
 * the branch is as it was. Mode `rebase` restacks pull requests with it, and a
 * task replays saved work onto a parent that moved with it.
 */
import { lstat, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { GitClient, RebaseStep } from "../git/git-client.ts";
import { hasConflictMarkers, type ConflictFile } from "../prompt/rebase-conflict-prompt.ts";
import { isInside } from "../sandbox/sandbox-mounts.ts";

/** Where a rebase stopped: what goes onto what, the commit being replayed and its conflicting files. */
export interface RebaseStop {
  readonly onto: string;
  readonly upstream: string;
  readonly commit: { readonly sha: string; readonly message: string };
  readonly files: readonly ConflictFile[];
}

export type RebaseResolved =
  { readonly ok: true } | { readonly ok: false; readonly files: readonly string[] };

const MAX_STOPS = 20;

/**
 * A conflicting file's text, read by Locus's own process (outside the sandbox): only a regular
 * file inside the worktree. Both sides of the rebase may be the agent's, and a link to
 * `/proc/self/environ` would put the Action's environment into the resolver's prompt.
 */
export async function conflictText(cwd: string, path: string): Promise<string> {
  try {
    const full = join(cwd, path);
    if (!(await lstat(full)).isFile()) return "";
    const real = await realpath(full);
    return isInside(real, await realpath(cwd)) ? await readFile(real, "utf8") : "";
  } catch {
    return "";
  }
}

async function conflictFiles(worktree: GitClient, paths: readonly string[]): Promise<ConflictFile[]> {
  return Promise.all(paths.map(async (path) => ({ path, text: await conflictText(worktree.cwd, path) })));
}

/** `git rebase --onto <onto> <upstream>` of the checked-out branch, each stop given to `resolve`. */
export async function rebaseResolving(
  worktree: GitClient,
  range: { readonly onto: string; readonly upstream: string },
  resolve: (stop: RebaseStop) => Promise<boolean>,
): Promise<RebaseResolved> {
  const { onto, upstream } = range;
  let step: RebaseStep = await worktree.rebaseOnto(onto, upstream);
  let stops = 0;
  while (step.state === "conflict") {
    stops += 1;
    const files = await conflictFiles(worktree, step.files);
    let resolved: boolean;
    try {
      resolved = stops <= MAX_STOPS && (await resolve({ onto, upstream, commit: step.commit, files }));
    } catch (error) {
      // Never leave a half-done rebase behind: whatever saves the work next must find the branch as it was.
      await worktree.rebaseAbort();
      throw error;
    }
    const after = await conflictFiles(worktree, step.files);
    if (!resolved || after.some((file) => hasConflictMarkers(file.text))) {
      await worktree.rebaseAbort();
      return { ok: false, files: step.files };
    }
    step = await worktree.rebaseContinue();
  }
  return { ok: true };
}
