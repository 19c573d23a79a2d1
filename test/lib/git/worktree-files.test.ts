/**
 * One `git ls-files` pass answers what the task needs of a worktree after the agent ran (tracked,
 * untracked, nested repositories), and one `ls-tree` the instruction files: a run used to spend
 * four listings and three `ls-tree` on them. Real git in a seeded checkout; the command count comes
 * from the client's own `exec`, so a command added back shows here.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { seedCheckout } from "./seeded-checkout.ts";
import { execGit, type ExecGit } from "../../../lib/git/exec-git.ts";
import { createGitClient } from "../../../lib/git/git-client.ts";
import { parseWorktreeFiles } from "../../../lib/git/listings.ts";

const exec = promisify(execFile);
const identity = { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" };
let dir: string;

async function sh(cwd: string, args: string[]): Promise<string> {
  const env = { PATH: process.env["PATH"] ?? "", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" };
  return (await exec("git", ["-c", "user.name=T", "-c", "user.email=t@e", ...args], { cwd, env })).stdout;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-worktree-files-"));
  await seedCheckout(dir, sh);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A client of the checkout whose git commands are counted by subcommand. */
function countingClient() {
  const commands: string[] = [];
  const counting: ExecGit = (args, options) => {
    commands.push(args.find((arg, at) => !arg.startsWith("-") && args[at - 1] !== "-c") ?? "");
    return execGit(args, options);
  };
  const git = createGitClient({
    cwd: join(dir, "work"),
    identity,
    env: { PATH: process.env["PATH"], HOME: dir },
    exec: counting,
  });
  return { git, commands };
}

it("lists tracked and untracked files and the nested repositories in one command, however files are named", async () => {
  const work = join(dir, "work");
  const sub = join(dir, "sub");
  await mkdir(sub);
  await sh(sub, ["init", "--quiet"]);
  await writeFile(join(sub, "x"), "x\n");
  await sh(sub, ["add", "x"]);
  await sh(sub, ["commit", "--quiet", "-m", "x"]);
  await sh(work, ["-c", "protocol.file.allow=always", "submodule", "add", "--quiet", sub, "linked"]);
  await sh(work, ["commit", "--quiet", "-m", "submodule"]);
  // An untracked repository, a name that reads like a tracked entry, one like an untracked one, an ignored file.
  await mkdir(join(work, "inner"));
  await sh(join(work, "inner"), ["init", "--quiet"]);
  await writeFile(join(work, "100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tfake"), "");
  await writeFile(join(work, "? seems-untracked"), "");
  await writeFile(join(work, ".gitignore"), "*.log\n");
  await writeFile(join(work, "build.log"), "noise\n");
  const { git, commands } = countingClient();

  const files = await git.worktreeFiles();

  expect(commands).toEqual(["ls-files"]);
  expect([...files.tracked].sort()).toEqual([".gitmodules", "a.txt", "linked"]);
  expect([...files.untracked].sort()).toEqual([
    ".gitignore",
    "100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tfake",
    "? seems-untracked",
    "inner/",
  ]);
  expect([...files.nested].sort()).toEqual(["inner", "linked"]);
});

it("reads each path once while a merge is unresolved (one index entry per stage)", () => {
  const listing = [
    "M 100644 1111111111111111111111111111111111111111 1\tc.txt",
    "M 100644 2222222222222222222222222222222222222222 2\tc.txt",
    "M 100644 3333333333333333333333333333333333333333 3\tc.txt",
    "H 160000 4444444444444444444444444444444444444444 0\tmodule",
    "? new.txt",
    "",
  ].join("\0");
  expect(parseWorktreeFiles(listing)).toEqual({
    tracked: ["c.txt", "module"],
    untracked: ["new.txt"],
    nested: ["module"],
  });
});

it("stages from the listing it is given, and learns from the diff alone that something is staged", async () => {
  const work = join(dir, "work");
  await writeFile(join(work, "b.txt"), "two\n");
  await mkdir(join(work, "inner"));
  await sh(join(work, "inner"), ["init", "--quiet"]);
  await writeFile(join(work, "inner", "secret.txt"), "inside\n");
  const { git, commands } = countingClient();

  const listed = await git.worktreeFiles();
  const stage = await git.stageAll([], listed);

  expect(stage).toEqual({ staged: true, withheld: [] });
  expect(commands).toEqual(["ls-files", "add", "diff"]);
  expect((await sh(work, ["diff", "--cached", "--name-only"])).trim()).toBe("b.txt");
  commands.length = 0;
  await sh(work, ["commit", "--quiet", "-m", "b"]);
  // Nothing left to stage: the diff is empty, and still no second diff.
  expect((await git.stageAll([], await git.worktreeFiles())).staged).toBe(false);
  expect(commands).toEqual(["ls-files", "add", "diff"]);
});

it("still asks git whether anything is staged once a file was withheld for a secret", async () => {
  const work = join(dir, "work");
  await writeFile(join(work, "leak.txt"), "token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n");
  const { git, commands } = countingClient();

  const stage = await git.stageAll([], await git.worktreeFiles());

  expect(stage.staged).toBe(false);
  expect(stage.withheld.map((hit) => hit.path)).toEqual(["leak.txt"]);
  expect(commands).toEqual(["ls-files", "add", "diff", "reset", "diff"]);
});

it("lists every committed path asked for with one ls-tree and reads only the files asked for", async () => {
  const work = join(dir, "work");
  await mkdir(join(work, ".locus"));
  await writeFile(join(work, "AGENTS.md"), "agents\n");
  await writeFile(join(work, "CLAUDE.md"), "claude\n");
  await symlink("/etc/passwd", join(work, ".locus", "LEARNINGS.md"));
  await mkdir(join(work, "docs.md"));
  await writeFile(join(work, "docs.md", "x"), "x\n");
  await sh(work, ["add", "."]);
  await sh(work, ["commit", "--quiet", "-m", "instructions"]);
  const commit = (await sh(work, ["rev-parse", "HEAD"])).trim();
  const { git, commands } = countingClient();

  const entries = await git.committedFiles(commit, [
    ".locus/LOCUS.md",
    "AGENTS.md",
    "CLAUDE.md",
    ".locus/LEARNINGS.md",
    "docs.md",
  ]);

  expect([...entries.keys()].sort()).toEqual([".locus/LEARNINGS.md", "AGENTS.md", "CLAUDE.md"]);
  expect(entries.get(".locus/LEARNINGS.md")).toEqual({ kind: "symlink" });
  expect(commands).toEqual(["ls-tree"]);
  const agents = entries.get("AGENTS.md");
  expect(agents?.kind === "file" ? await agents.read() : undefined).toBe("agents\n");
  expect(commands).toEqual(["ls-tree", "cat-file"]);
});
