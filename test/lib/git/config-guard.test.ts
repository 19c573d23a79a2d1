import { execFile } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile, chmod, access } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitClient, type GitClient } from "../../../lib/git/git-client.ts";
import { pushAuthFor } from "../../../lib/git/push-auth.ts";
import { seedCheckout } from "./seeded-checkout.ts";

const exec = promisify(execFile);
const identity = { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" };
const TOKEN = "ghs_guardTestToken0123456789abcdef";
let dir: string;
let remote: string;
let leak: string;
let reverted: string[][];
let git: GitClient;

async function sh(cwd: string, args: string[]): Promise<string> {
  const env = { PATH: process.env["PATH"] ?? "", HOME: dir, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@e" };
  return (
    await exec("git", args, { cwd, env: { ...env, GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@e" } })
  ).stdout;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-git-guard-"));
  leak = join(dir, "leak");
  await seedCheckout(dir, sh);
  remote = join(dir, "remote.git");
  reverted = [];
  git = createGitClient({
    cwd: join(dir, "work"),
    identity,
    env: { PATH: process.env["PATH"], HOME: dir },
    remoteUrl: remote,
    // An HTTP credential in the environment of remote commands, as on a real runner.
    auth: pushAuthFor("https://github.example/acme/widgets.git", TOKEN),
    onConfigReverted: (paths) => reverted.push([...paths]),
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What an agent's shell could do to the repository it works in, each writing the environment to `leak`. */
async function poison(worktree: string, gitDir: string): Promise<void> {
  const run = `sh -c 'env > ${leak}'`;
  await appendFile(
    join(gitDir, "config"),
    [
      `[remote "origin"]`,
      `\tpushurl = ext::${run}`,
      `[url "ext::${run} #"]`,
      `\tinsteadOf = ${remote}`,
      `[core]`,
      `\tsshCommand = ${run}`,
      `\tfsmonitor = ${run}`,
      "",
    ].join("\n"),
  );
  await mkdir(join(gitDir, "hooks"), { recursive: true });
  for (const hook of ["pre-push", "pre-commit", "post-commit", "reference-transaction"]) {
    await writeFile(join(gitDir, "hooks", hook), `#!/bin/sh\nenv > ${leak}\n`);
    await chmod(join(gitDir, "hooks", hook), 0o755);
  }
  await writeFile(join(worktree, "b.txt"), "two\n");
}

describe("Locus's own git cannot be steered by the repository's config", () => {
  it("reverts an ext:: push URL, insteadOf, sshCommand, fsmonitor and hooks before pushing, and reports it", async () => {
    await git.fetchBranches(["main"]);
    const wt = await git.worktreeAdd(join(dir, "wt"), "locus/issue-1", git.remoteRef("main"));
    const before = await readFile(join(dir, "work", ".git", "config"), "utf8");
    await poison(wt.cwd, join(dir, "work", ".git"));

    expect((await wt.stageAll()).staged).toBe(true);
    await wt.commit("feat: b (#1)");
    expect(await wt.push("locus/issue-1", { expect: "" })).toEqual({ ok: true });

    expect(await exists(leak)).toBe(false);
    expect(await sh(remote, ["log", "-1", "--format=%s", "locus/issue-1"])).toBe("feat: b (#1)\n");
    expect(await readFile(join(dir, "work", ".git", "config"), "utf8")).toBe(before);
    expect(reverted).toEqual([[join(dir, "work", ".git", "config")]]);
  });

  it("reverts a worktree's .git file pointed at a git directory the agent made", async () => {
    await git.fetchBranches(["main"]);
    const wt = await git.worktreeAdd(join(dir, "wt"), "locus/issue-2", git.remoteRef("main"));
    const dotGit = await readFile(join(wt.cwd, ".git"), "utf8");
    await sh(dir, ["init", "--quiet", "--bare", "evil.git"]);
    await poison(wt.cwd, join(dir, "evil.git"));
    await writeFile(join(wt.cwd, ".git"), `gitdir: ${join(dir, "evil.git")}\n`);

    expect(await wt.push("locus/issue-2", { expect: "" })).toEqual({ ok: true });
    expect(await exists(leak)).toBe(false);
    expect(await readFile(join(wt.cwd, ".git"), "utf8")).toBe(dotGit);
  });

  it("allows only https and local paths: an ext:: remote never runs, whatever the client was given", async () => {
    const steered = createGitClient({
      cwd: join(dir, "work"),
      identity,
      env: { PATH: process.env["PATH"], HOME: dir },
      remoteUrl: `ext::sh -c 'env > ${leak}'`,
      auth: pushAuthFor("https://github.example/acme/widgets.git", TOKEN),
    });
    const result = await steered.push("locus/issue-3", { expect: "" });
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.message).toMatch(/transport 'ext' not allowed/);
    expect(await exists(leak)).toBe(false);
  });
});
