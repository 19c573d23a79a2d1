/**
 * A "rebase and merge": each commit of the head is replayed onto the base
 * with a new committer (the merger) and the original author, and the base
 * fast-forwards to the last one
 * (https://docs.github.com/repositories/configuring-branches-and-merges-in-your-repository/configuring-pull-request-merges/about-merge-methods-on-github#rebasing-and-merging-your-commits).
 * The bare repository gets a temporary detached worktree for the cherry-picks.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, type GitIdentity } from "./git.ts";

// git inside the temporary worktree (its own .git file leads to the bare repository).
function inWorktree(cwd: string, args: string[], env: Record<string, string>): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, env: { ...process.env, ...env } }, (error, stdout) =>
      resolve(error ? null : stdout.trim()),
    );
  });
}

// The new tip of the base, or null when a commit does not apply cleanly.
export async function rebaseCommits(
  gitDir: string,
  baseSha: string,
  headSha: string,
  committer: GitIdentity,
  date: string,
): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), "github-sim-rebase-"));
  const worktree = join(dir, "wt");
  const env = {
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: date,
  };
  try {
    await git(gitDir, ["worktree", "add", "--quiet", "--detach", worktree, baseSha]);
    const commits = (await git(gitDir, ["rev-list", "--reverse", "--no-merges", `${baseSha}..${headSha}`]))
      .split("\n")
      .filter((sha) => sha.length > 0);
    for (const sha of commits) {
      const picked = await inWorktree(
        worktree,
        ["cherry-pick", "--allow-empty", "--keep-redundant-commits", sha],
        env,
      );
      if (picked === null) return null;
    }
    return await inWorktree(worktree, ["rev-parse", "HEAD"], env);
  } catch {
    return null;
  } finally {
    await git(gitDir, ["worktree", "remove", "--force", worktree], { allowFailure: true });
    await rm(dir, { recursive: true, force: true });
  }
}
