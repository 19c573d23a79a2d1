/**
 * `commit.via: api` against the simulator over HTTP: the worktree's commits are read from Locus's
 * own repository and recreated through `createCommitOnBranch`, so GitHub marks them verified; a
 * ruleset requiring signed commits refuses a plain push (with GitHub's GH013 text) and takes
 * these; a binary file comes through byte for byte; a change too large for one request is split;
 * a new executable file is refused before anything is written.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import type { Repo } from "../../../sandbox/github-sim/model.ts";
import type { GitHubGateway } from "../../../lib/github/index.ts";
import { pushThroughApi } from "../../../lib/git/api-commits.ts";
import { createGitClient, type GitClient } from "../../../lib/git/git-client.ts";
import { openLocusRepository } from "../../../lib/git/locus-repository.ts";
import { pushAuthFor } from "../../../lib/git/push-auth.ts";
import { startTestSim, type TestSim } from "../../sandbox/github-sim/harness.ts";
import { recordingLog, simulatorGateway } from "../github/helpers.ts";

const exec = promisify(execFile);
const identity = { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" };

let t: TestSim;
let repo: Repo;
let token: string;
let gateway: GitHubGateway;
let work: string;
let url: string;

async function sh(cwd: string, args: string[]): Promise<string> {
  const env = {
    PATH: process.env["PATH"] ?? "",
    HOME: t.tempDir,
    GIT_AUTHOR_NAME: "T",
    GIT_AUTHOR_EMAIL: "t@e",
    GIT_COMMITTER_NAME: "T",
    GIT_COMMITTER_EMAIL: "t@e",
    ...pushAuthFor(url, token).env,
  };
  return (await exec("git", args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })).stdout;
}

/** A client as a mode holds it: the base branch fetched into Locus's repository first. */
async function client(via: "git" | "api"): Promise<GitClient> {
  const made = createGitClient({
    cwd: work,
    identity,
    env: { PATH: process.env["PATH"] },
    remoteUrl: url,
    repositoryPath: join(t.tempDir, `locus-repository-${via}`),
    auth: pushAuthFor(url, token),
    ...(via === "api" ? { commitWrites: gateway } : {}),
  });
  await made.fetchBranches(["main"]);
  return made;
}

const verified = async (sha: string) =>
  (
    await t.client(token).request("GET /repos/{owner}/{repo}/commits/{ref}", {
      owner: "acme",
      repo: "widgets",
      ref: sha,
    })
  ).data.commit.verification?.verified;

beforeEach(async () => {
  t = await startTestSim();
  repo = (await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n", "run.sh": "echo\n" } })).repo;
  token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  const log = recordingLog();
  gateway = simulatorGateway({
    apiUrl: t.sim.apiUrl,
    token,
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: [t.sim.app.botLogin],
    log,
  });
  url = `${t.sim.url}/acme/widgets.git`;
  work = join(t.tempDir, "work");
  await sh(t.tempDir, ["clone", "--quiet", url, work]);
  await sh(work, ["checkout", "--quiet", "-b", "locus/issue-1"]);
});
afterEach(() => t.close());

async function commitFiles(files: Record<string, string | Buffer>, message: string): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(work, path, ".."), { recursive: true });
    await writeFile(join(work, path), content);
  }
  await sh(work, ["add", "--all"]);
  await sh(work, ["commit", "--quiet", "-m", message]);
}

const requireSignatures = (r: Repo) => {
  r.rulesets = [
    {
      name: "signed",
      enforcement: "active",
      conditions: { ref_name: { include: ["~ALL"], exclude: [] } },
      rules: [{ type: "required_signatures" }],
    },
  ];
};

describe("commit.via: api", () => {
  it("recreates each commit with its message and files, and GitHub marks them verified", async () => {
    const binary = Buffer.from([0, 255, 1, 254, 10, 13, 0, 128]);
    await commitFiles({ "a.txt": "two\n", "img/logo.bin": binary }, "feat: first (#1)\n\nWhy it changed.");
    await sh(work, ["rm", "--quiet", "run.sh"]);
    await sh(work, ["commit", "--quiet", "-m", "chore: second (#1)"]);
    const localTree = (await sh(work, ["rev-parse", "HEAD^{tree}"])).trim();

    const pushed = await (await client("api")).push("locus/issue-1", { expect: "" });

    expect(pushed).toEqual({ ok: true });
    const head = (await sh(work, ["ls-remote", url, "refs/heads/locus/issue-1"])).split("\t")[0] ?? "";
    const log = await sh(work, ["log", "--format=%H%x00%B%x00%an", "-2", head]);
    expect(log).toContain("chore: second (#1)");
    expect(log).toContain("feat: first (#1)\n\nWhy it changed.");
    expect(log).toContain(t.sim.app.botLogin);
    const [second = "", first = ""] = log
      .split("\n")
      .filter((line) => /^[0-9a-f]{40}/.test(line))
      .map((line) => line.slice(0, 40));
    expect(await verified(second)).toBe(true);
    expect(await verified(first)).toBe(true);
    // The same tree as the sandbox's commits, the binary file byte for byte; the worktree now sits on GitHub's commit.
    expect((await sh(work, ["rev-parse", `${head}^{tree}`])).trim()).toBe(localTree);
    const blob = await exec("git", ["cat-file", "blob", `${head}:img/logo.bin`], {
      cwd: work,
      encoding: "buffer",
    });
    expect(Buffer.compare(blob.stdout, binary)).toBe(0);
    expect((await sh(work, ["rev-parse", "HEAD"])).trim()).toBe(head);
  });

  it("is accepted where a ruleset requires signatures, while a plain push is refused naming the rule", async () => {
    requireSignatures(repo);
    await commitFiles({ "a.txt": "two\n" }, "feat: change (#1)");

    const plain = await (await client("git")).push("locus/issue-1", { expect: "" });
    expect(plain.ok).toBe(false);
    const message = plain.ok ? "" : plain.message;
    expect(message).toContain("GH013: Repository rule violations found for refs/heads/locus/issue-1.");
    expect(message).toContain("Commits must have verified signatures.");

    expect(await (await client("api")).push("locus/issue-1", { expect: "" })).toEqual({ ok: true });
    // Another commit on top: appended to GitHub's commit, verified too.
    await commitFiles({ "b.txt": "three\n" }, "fix: more (#1)");
    const remoteHead = (await sh(work, ["ls-remote", url, "refs/heads/locus/issue-1"])).split("\t")[0] ?? "";
    expect(await (await client("api")).push("locus/issue-1", { expect: remoteHead })).toEqual({ ok: true });
    const head = (await sh(work, ["ls-remote", url, "refs/heads/locus/issue-1"])).split("\t")[0] ?? "";
    expect(await verified(head)).toBe(true);
    // A pointer moved onto commits GitHub already made carries nothing to sign: git moves it, and the rule lets it.
    const main = (await sh(work, ["rev-parse", "origin/main"])).trim();
    await sh(work, ["push", "--quiet", url, `${main}:refs/heads/locus/sprint-s`]);
    expect(await (await client("api")).push("locus/sprint-s", { expect: main })).toEqual({ ok: true });
    expect((await sh(work, ["ls-remote", url, "refs/heads/locus/sprint-s"])).split("\t")[0]).toBe(head);
  });

  it("refuses a lease GitHub no longer holds as a moved branch", async () => {
    await commitFiles({ "a.txt": "two\n" }, "feat: change (#1)");
    const base = (await sh(work, ["rev-parse", "HEAD~1"])).trim();
    await sh(work, ["push", "--quiet", url, `${base}:refs/heads/locus/issue-1`]);

    const pushed = await (await client("api")).push("locus/issue-1", { expect: "" });

    expect(pushed).toMatchObject({ ok: false, rejected: true });
  });

  it("publishes a rebased branch: moved back to its new base under the lease, then the commits appended", async () => {
    await commitFiles({ "b.txt": "mine\n" }, "feat: mine (#1)");
    expect(await (await client("api")).push("locus/issue-1", { expect: "" })).toEqual({ ok: true });
    const first = (await sh(work, ["rev-parse", "HEAD"])).trim();
    // main moves on; the branch is rebased onto it in the worktree.
    const other = join(t.tempDir, "other");
    await sh(t.tempDir, ["clone", "--quiet", url, other]);
    await writeFile(join(other, "c.txt"), "theirs\n");
    await sh(other, ["add", "c.txt"]);
    await sh(other, ["commit", "--quiet", "-m", "chore: theirs"]);
    await sh(other, ["push", "--quiet", "origin", "HEAD:main"]);
    await sh(work, ["fetch", "--quiet", "origin"]);
    await sh(work, ["rebase", "--quiet", "origin/main"]);

    expect(await (await client("api")).push("locus/issue-1", { expect: "f".repeat(40) })).toMatchObject({
      ok: false,
      rejected: true,
    });
    expect(await (await client("api")).push("locus/issue-1", { expect: first })).toEqual({ ok: true });

    const head = (await sh(work, ["ls-remote", url, "refs/heads/locus/issue-1"])).split("\t")[0] ?? "";
    const main = (await sh(work, ["ls-remote", url, "refs/heads/main"])).split("\t")[0] ?? "";
    expect((await sh(work, ["rev-parse", `${head}~1`])).trim()).toBe(main);
    expect(await verified(head)).toBe(true);
    expect((await sh(work, ["show", `${head}:c.txt`])).trim()).toBe("theirs");
  });

  it("refuses a new executable file before writing anything", async () => {
    await writeFile(join(work, "tool.sh"), "#!/bin/sh\n");
    await chmod(join(work, "tool.sh"), 0o755);
    await sh(work, ["add", "tool.sh"]);
    await sh(work, ["commit", "--quiet", "-m", "feat: tool (#1)"]);

    const pushed = await (await client("api")).push("locus/issue-1", { expect: "" });

    expect(pushed.ok).toBe(false);
    expect(pushed.ok ? "" : pushed.message).toContain("tool.sh is an executable file");
    expect((await sh(work, ["ls-remote", url, "refs/heads/locus/issue-1"])).trim()).toBe("");
  });

  it("splits a change too large for one request into parts, in order", async () => {
    await commitFiles(
      { "big/one.txt": "1".repeat(3000), "big/two.txt": "2".repeat(3000), "big/three.txt": "3".repeat(3000) },
      "feat: large (#1)",
    );
    const own = await openLocusRepository({
      path: join(t.tempDir, "locus-repository-split"),
      url,
      remote: "origin",
      auth: pushAuthFor(url, token),
      searchPath: process.env["PATH"] ?? "",
    });
    const tip = (await sh(work, ["rev-parse", "HEAD"])).trim();
    await own.fetch(["main"]);
    const bundle = join(t.tempDir, "c.bundle");
    await sh(work, ["bundle", "create", "--quiet", bundle, "HEAD", "--not", "origin/main"]);
    expect(await own.importBundle(bundle, tip, await own.haves())).toEqual([]);

    const made = await pushThroughApi(own.commits, gateway, {
      tip,
      branch: "locus/issue-1",
      expect: "",
      haves: await own.haves(),
      remoteHead: () => Promise.resolve(""),
      capBytes: 5000,
    });

    expect(made.ok).toBe(true);
    await sh(work, ["fetch", "--quiet", url, "locus/issue-1"]);
    const subjects = await sh(work, ["log", "--format=%s", "-3", made.ok ? made.head : ""]);
    expect(subjects.trim().split("\n")).toEqual([
      "feat: large (#1) (part 3 of 3)",
      "feat: large (#1) (part 2 of 3)",
      "feat: large (#1) (part 1 of 3)",
    ]);
    expect((await sh(work, ["rev-parse", `${made.ok ? made.head : ""}^{tree}`])).trim()).toBe(
      (await sh(work, ["rev-parse", "HEAD^{tree}"])).trim(),
    );
  });
});
