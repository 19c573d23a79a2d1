import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * What `git init --bare` leaves that git needs, and its empty `hooks/` for a test's server-side hook
 * (not the sample hooks, description or excludes),
 * written here: the simulator seeds hundreds of repositories in a test run, and each `git init`
 * was one more process started from the large test worker.
 * https://git-scm.com/docs/gitrepository-layout
 */
export async function writeEmptyBareRepository(gitDir: string, defaultBranch: string): Promise<void> {
  if (!/^[A-Za-z0-9._/-]+$/.test(defaultBranch) || defaultBranch.split("/").includes(".."))
    throw new Error(`git init failed: ${JSON.stringify(defaultBranch)} is not a branch name to start with`);
  for (const folder of ["hooks", "objects/info", "objects/pack", "refs/heads", "refs/tags"])
    await mkdir(join(gitDir, folder), { recursive: true });
  await writeFile(join(gitDir, "HEAD"), `ref: refs/heads/${defaultBranch}\n`);
  await writeFile(
    join(gitDir, "config"),
    "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n",
  );
}
