/**
 * Commits files to a simulated repository's default branch over git, as its owner would from a
 * clone of their own: the step of the README that adds the caller workflow.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { GitHubSimulator } from "../../sandbox/github-sim/index.ts";

const exec = promisify(execFile);

export async function commitAsOwner(options: {
  readonly sim: GitHubSimulator;
  /** Where the clone goes (and git's HOME): a test's own temp directory. */
  readonly dir: string;
  readonly owner: string;
  readonly repo: string;
  readonly files: Record<string, string>;
  readonly message: string;
}): Promise<void> {
  const { sim, owner } = options;
  const clone = await mkdtemp(join(options.dir, "owner-"));
  const origin = new URL(sim.url);
  const env = {
    PATH: process.env["PATH"] ?? "",
    HOME: options.dir,
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: owner,
    GIT_AUTHOR_EMAIL: `${owner}@example.com`,
    GIT_COMMITTER_NAME: owner,
    GIT_COMMITTER_EMAIL: `${owner}@example.com`,
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${origin.protocol}//${origin.host}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${sim.as(owner)}`).toString("base64")}`,
  };
  await exec("git", ["clone", "--quiet", `${sim.url}/${owner}/${options.repo}.git`, clone], { env });
  for (const [path, text] of Object.entries(options.files)) {
    await mkdir(dirname(join(clone, path)), { recursive: true });
    await writeFile(join(clone, path), text);
  }
  await exec("git", ["add", "--all"], { cwd: clone, env });
  await exec("git", ["commit", "--quiet", "-m", options.message], { cwd: clone, env });
  await exec("git", ["push", "--quiet", "origin", "HEAD"], { cwd: clone, env });
}
