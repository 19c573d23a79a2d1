/**
 * What crosses from a worktree to the remote, with real git and a bare remote: the commits pass
 * through Locus's own repository, which refuses a new gitlink or a `.gitmodules` change, and
 * staging neither descends into a nested repository (whose filter would run) nor keeps a file
 * that adds a secret.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitClient, type GitClient } from "../../../lib/git/git-client.ts";
import { refusedChanges } from "../../../lib/git/pushed-objects.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const exec = promisify(execFile);
const identity = { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" };
const SECRET = "run-secret-Q8w2Zr5Tk1";
let dir: string;
let work: string;
let remote: string;
let git: GitClient;

async function sh(cwd: string, args: string[]): Promise<string> {
  const env = { PATH: process.env["PATH"] ?? "", HOME: dir, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@e" };
  return (
    await exec("git", args, { cwd, env: { ...env, GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@e" } })
  ).stdout;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-publish-"));
  remote = join(dir, "remote.git");
  await sh(dir, ["init", "--quiet", "--bare", "-b", "main", remote]);
  work = join(dir, "work");
  await sh(dir, ["clone", "--quiet", remote, work]);
  await writeFile(join(work, "a.txt"), "one\n");
  await sh(work, ["add", "."]);
  await sh(work, ["commit", "--quiet", "-m", "base"]);
  await sh(work, ["push", "--quiet", "origin", "HEAD:main"]);
  git = createGitClient({
    cwd: work,
    identity,
    env: { PATH: process.env["PATH"] },
    remoteUrl: remote,
    repositoryPath: join(dir, "locus-repository"),
    secrets: () => [SECRET],
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const remoteHas = async (branch: string) => (await sh(remote, ["branch", "--list", branch])).trim() !== "";

describe("pushing through Locus's own repository", () => {
  it("pushes ordinary commits, by the URL read before, from a repository of its own", async () => {
    await writeFile(join(work, "b.txt"), "two\n");
    await git.stageAll();
    const sha = await git.commit("add b");
    expect(await git.push("locus/ok", { expect: "" })).toEqual({ ok: true });
    expect((await sh(remote, ["rev-parse", "locus/ok"])).trim()).toBe(sha);
    // A second push of the same tip needs no bundle: the repository has it.
    expect(await git.push("locus/ok-again", { expect: "" })).toEqual({ ok: true });
    expect(existsSync(join(dir, "locus-repository", "HEAD"))).toBe(true);
  });

  it("refuses a commit that adds a gitlink, and the remote never sees it", async () => {
    const head = (await sh(work, ["rev-parse", "HEAD"])).trim();
    await sh(work, ["update-index", "--add", "--cacheinfo", `160000,${head},vendor/lib`]);
    // Committed as the agent could without a sandbox: Locus's own commit never records a gitlink.
    await sh(work, ["commit", "--quiet", "-m", "add a submodule"]);
    const pushed = await git.push("locus/gitlink", { expect: "" });
    expect(pushed).toMatchObject({ ok: false, rejected: false });
    expect(pushed.ok ? "" : pushed.message).toContain("adds or moves a submodule at vendor/lib");
    expect(await remoteHas("locus/gitlink")).toBe(false);
    // Refused commits are not remembered as pushable: a second try is refused again.
    expect((await git.push("locus/gitlink", { expect: "" })).ok).toBe(false);
  });

  it("refuses a .gitmodules change", async () => {
    await writeFile(
      join(work, ".gitmodules"),
      '[submodule "x"]\n\tpath = x\n\turl = https://example.com/x\n',
    );
    await git.stageAll();
    await git.commit("modules");
    const pushed = await git.push("locus/modules", { expect: "" });
    expect(pushed.ok ? "" : pushed.message).toContain("it changes .gitmodules");
    expect(await remoteHas("locus/modules")).toBe(false);
  });
});

describe("staging", () => {
  for (const recorded of [false, true]) {
    it(`leaves a nested repository out and never runs its filter (${recorded ? "recorded as a gitlink" : "untracked"})`, async () => {
      const nested = join(work, "nested");
      await mkdir(nested);
      await sh(nested, ["init", "--quiet"]);
      const marker = join(dir, "filter-ran");
      await sh(nested, ["config", "filter.x.clean", `sh -c 'echo ran > ${marker}; cat'`]);
      await writeFile(join(nested, ".gitattributes"), "* filter=x\n");
      await writeFile(join(nested, "f.txt"), "dirty\n");
      await sh(nested, ["add", "."]);
      await sh(nested, ["commit", "--quiet", "-m", "n"]);
      // An earlier task's commit, made before this rule, recorded it (as in a sprint's second task).
      if (recorded) await sh(work, ["add", "nested"]).then(() => sh(work, ["commit", "--quiet", "-m", "n"]));
      await writeFile(join(nested, "f.txt"), "dirtier\n");
      await rm(marker, { force: true });
      await writeFile(join(work, "b.txt"), "two\n");

      expect((await git.stageAll()).staged).toBe(true);
      await git.commit("b");

      expect(existsSync(marker)).toBe(false);
      expect(await git.listFiles()).toEqual(recorded ? ["a.txt", "b.txt", "nested"] : ["a.txt", "b.txt"]);
    });
  }

  it("withholds a file that would add a secret or a token, and says which", async () => {
    await writeFile(join(work, "leak.txt"), `${Buffer.from(SECRET).toString("base64")}\n`);
    await writeFile(join(work, "token.env"), `T=ghp_${"a".repeat(36)}\n`);
    await writeFile(join(work, "fine.txt"), "fine\n");

    const staged = await git.stageAll();

    expect(staged.staged).toBe(true);
    expect(staged.withheld).toEqual([
      { path: "leak.txt", what: "a secret of this run" },
      { path: "token.env", what: "a GitHub token" },
    ]);
    await git.commit("fine");
    expect(await git.listFiles()).toEqual(["a.txt", "fine.txt"]);
  });
});

describeWithSandbox("git over the worktree, in the sandbox", () => {
  it("runs what the repository names (here a filter) where the host's files are out of reach, and still pushes", async () => {
    const outside = join(dir, "filter-ran-outside");
    const inside = join(work, "filter-ran-inside");
    await sh(work, ["config", "filter.x.clean", `sh -c 'echo ran > ${outside}; echo ran > ${inside}; cat'`]);
    await writeFile(join(work, ".gitattributes"), "*.txt filter=x\n");
    await writeFile(join(work, "b.txt"), "two\n");
    const sandbox = await createSandbox({ mode: "required", allow: [], env: process.env });
    try {
      const boxed = createGitClient({
        cwd: work,
        identity,
        env: { PATH: process.env["PATH"] },
        remoteUrl: remote,
        repositoryPath: join(dir, "locus-repository"),
        sandbox,
      });
      expect((await boxed.stageAll(["filter-ran-inside"])).staged).toBe(true);
      await boxed.commit("b");
      expect(existsSync(inside)).toBe(true);
      expect(existsSync(outside)).toBe(false);
      expect(await boxed.push("locus/boxed", { expect: "" })).toEqual({ ok: true });
      expect(await remoteHas("locus/boxed")).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe("refusedChanges", () => {
  it("reads git's raw listing: a new or moved gitlink and .gitmodules are refused, a removed gitlink is not", () => {
    const zero = "0".repeat(40);
    const sha = "a".repeat(40);
    const entry = (old: string, mode: string, status: string, path: string) =>
      `:${old} ${mode} ${zero} ${sha} ${status}\0${path}\0`;
    expect(refusedChanges(entry("000000", "100644", "A", "src/a.ts"))).toEqual([]);
    expect(refusedChanges(entry("160000", "000000", "D", "old"))).toEqual([]);
    expect(refusedChanges(entry("000000", "160000", "A", "lib"))).toEqual([
      "it adds or moves a submodule at lib",
    ]);
    expect(refusedChanges(entry("100644", "100644", "M", ".gitmodules"))).toEqual(["it changes .gitmodules"]);
  });
});
