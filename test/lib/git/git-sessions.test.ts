/**
 * Locus's git in one checkout or one worktree asks the sandbox for one set of mounts for all its
 * commands, so the sandbox keeps one session for them (a session is kept per set of mounts, and
 * each start is a bubblewrap and a node process). The sandbox here runs real git on the host and
 * records what each command asked to mount.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { seedCheckout } from "./seeded-checkout.ts";
import { readCheckoutFacts } from "../../../lib/git/checkout-facts.ts";
import { createGitClient } from "../../../lib/git/git-client.ts";
import type { GitSandbox } from "../../../lib/git/sandboxed-git.ts";

const exec = promisify(execFile);
const identity = { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" };
let dir: string;

async function sh(cwd: string, args: string[]): Promise<void> {
  const env = { PATH: process.env["PATH"] ?? "", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" };
  await exec("git", ["-c", "user.name=T", "-c", "user.email=t@e", ...args], { cwd, env });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-git-sessions-"));
  await seedCheckout(dir, sh);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs git on the host and records, per directory, each distinct set of mounts asked for. */
function recordingSandbox(): { sandbox: GitSandbox; mounts: Map<string, Set<string>> } {
  const mounts = new Map<string, Set<string>>();
  const sandbox: GitSandbox = {
    async exec(request, wrap) {
      const asked = JSON.stringify({
        writable: [...(wrap.writable ?? [])].sort(),
        readable: [...(wrap.readable ?? [])].sort(),
      });
      mounts.set(wrap.cwd, (mounts.get(wrap.cwd) ?? new Set()).add(asked));
      const env = Object.fromEntries(
        Object.entries(wrap.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      const run = await exec(request.file, [...request.args], {
        cwd: wrap.cwd,
        env,
        encoding: "buffer",
      }).then(
        (done) => ({ ...done, code: 0 }),
        (failed: { stdout: Buffer; stderr: Buffer; code: number }) => failed,
      );
      request.onOutput(1, run.stdout);
      request.onOutput(2, run.stderr);
      return { exitCode: run.code, timedOut: false, aborted: false, droppedBytes: 0 };
    },
  };
  return { sandbox, mounts };
}

it("runs every git command of the checkout, and of a worktree, with one set of mounts", async () => {
  const { sandbox, mounts } = recordingSandbox();
  const work = join(dir, "work");
  const runTemp = join(dir, "runner-temp");
  const worktreesDir = join(runTemp, "locus-worktrees");
  const repositoryPath = join(runTemp, "locus-repository");
  const env = { PATH: process.env["PATH"], HOME: dir };
  const options = { identity, env, sandbox, repositoryPath, worktreesDir };
  // The run's first reads, made before the token exchange names the author: the same session.
  const { identity: _authorComesLater, ...readOptions } = options;
  const facts = await readCheckoutFacts({ cwd: work, ...readOptions });
  expect(facts.head).toMatch(/^[0-9a-f]{40}$/);
  const git = createGitClient({ cwd: work, ...options, remoteUrl: facts.remoteUrl });
  expect(await git.revParse("HEAD")).toBe(facts.head);
  await git.fetchBranches(["main"]);
  const path = join(worktreesDir, "issue-1");
  const worktree = await git.worktreeAdd(path, "locus/issue-1", git.remoteRef("main"));
  await writeFile(join(path, "b.txt"), "two\n");
  expect((await worktree.stageAll()).staged).toBe(true);
  await worktree.commit("Add b");
  expect(await worktree.push("locus/issue-1")).toEqual({ ok: true });
  await worktree.fetchBranches(["locus/issue-1"]);

  // One set each: the checkout's includes the worktrees' directory, a worktree's does not.
  expect([...(mounts.get(work) ?? [])]).toHaveLength(1);
  expect([...(mounts.get(path) ?? [])]).toHaveLength(1);
  const [checkoutMounts = ""] = mounts.get(work) ?? [];
  const [worktreeMounts = ""] = mounts.get(path) ?? [];
  expect(JSON.parse(checkoutMounts)).toEqual({
    writable: [join(work, ".git"), `${repositoryPath}-bundles`, worktreesDir].sort(),
    readable: [repositoryPath],
  });
  expect(JSON.parse(worktreeMounts)).toEqual({
    writable: [join(work, ".git"), `${repositoryPath}-bundles`].sort(),
    readable: [repositoryPath],
  });
  // The push's bundle crossed and was removed.
  expect(await readdir(`${repositoryPath}-bundles`)).toEqual([]);
  await sh(dir, ["--git-dir", join(dir, "remote.git"), "rev-parse", "--verify", "refs/heads/locus/issue-1"]);
});
