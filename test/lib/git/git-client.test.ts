import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seedCheckout } from "./seeded-checkout.ts";
import { createGitClient, type GitClient } from "../../../lib/git/git-client.ts";
import { execGit } from "../../../lib/git/exec-git.ts";
import { pushAuthFor } from "../../../lib/git/push-auth.ts";
import { assertRefName, assertRepoPath, isValidRefName } from "../../../lib/git/ref-names.ts";

const exec = promisify(execFile);
const identity = { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" };
let dir: string;
let git: GitClient;

async function sh(cwd: string, args: string[]): Promise<string> {
  const env = {
    PATH: process.env["PATH"] ?? "",
    HOME: dir,
    GIT_AUTHOR_NAME: "T",
    GIT_AUTHOR_EMAIL: "t@e",
    GIT_COMMITTER_NAME: "T",
    GIT_COMMITTER_EMAIL: "t@e",
  };
  return (await exec("git", args, { cwd, env })).stdout;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-git-"));
  await seedCheckout(dir, sh);
  git = createGitClient({ cwd: join(dir, "work"), identity, env: { PATH: process.env["PATH"], HOME: dir } });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("ref and path names", () => {
  it("accepts Locus's branches and refuses option-like or climbing names", () => {
    expect(isValidRefName("locus/issue-12")).toBe(true);
    expect(isValidRefName("locus/wip/issue-3")).toBe(true);
    for (const bad of ["-delete", "a..b", "a//b", "x.lock", "a/.hidden", "ref@{1}", "a b", "trailing/"]) {
      expect(() => assertRefName(bad)).toThrow(/unsafe git ref/);
    }
    expect(assertRepoPath(".github/locus.yml")).toBe(".github/locus.yml");
    expect(() => assertRepoPath("../etc/passwd")).toThrow();
    expect(() => assertRepoPath("/etc/passwd")).toThrow();
  });
});

describe("push credentials", () => {
  it("go in per-command config variables for HTTP remotes and nowhere for local paths", () => {
    const auth = pushAuthFor("https://github.com/acme/widgets.git", "ghs_secret");
    expect(auth.env["GIT_CONFIG_KEY_0"]).toBe("http.https://github.com/.extraheader");
    expect(auth.env["GIT_CONFIG_VALUE_0"]).toBe(
      `AUTHORIZATION: basic ${Buffer.from("x-access-token:ghs_secret").toString("base64")}`,
    );
    expect(pushAuthFor("/tmp/remote.git", "ghs_secret").env).toEqual({});
  });
});

describe("git client", () => {
  it("commits as its own identity in a worktree, pushes with a lease, and never writes credentials to config", async () => {
    await git.fetchBranches(["main"]);
    const wt = await git.worktreeAdd(join(dir, "wt"), "locus/issue-1", git.remoteRef("main"));
    await writeFile(join(wt.cwd, "b.txt"), "two\n");
    expect((await wt.stageAll()).staged).toBe(true);
    await wt.commit("feat: b (#1)");
    expect(await wt.push("locus/issue-1", { expect: "" })).toEqual({ ok: true });
    const author = await sh(join(dir, "remote.git"), ["log", "-1", "--format=%an <%ae>", "locus/issue-1"]);
    expect(author.trim()).toBe("locus[bot] <locus[bot]@users.noreply.github.com>");
    // A lease on a value the remote no longer has refuses the push.
    await writeFile(join(wt.cwd, "b.txt"), "three\n");
    await wt.stageAll();
    await wt.commit("more");
    const refused = await wt.push("locus/issue-1", { expect: "0".repeat(40) });
    expect(refused.ok).toBe(false);
    expect(await readFile(join(dir, "work", ".git", "config"), "utf8")).not.toMatch(/extraheader|token/i);
    expect((await git.remoteBranches(["locus/*"])).has("locus/issue-1")).toBe(true);
  });

  it("asks for the push's write credentials as the push begins, before the commits are bundled and checked", async () => {
    const events: string[] = [];
    const recorded = createGitClient({
      cwd: join(dir, "work"),
      identity,
      env: { PATH: process.env["PATH"], HOME: dir },
      auth: (access) => {
        events.push(`auth ${access}`);
        return Promise.resolve({ env: {} });
      },
      exec: (args, options) => {
        if (args.includes("bundle")) events.push("bundle");
        return execGit(args, options);
      },
    });
    await recorded.fetchBranches(["main"]);
    const wt = await recorded.worktreeAdd(join(dir, "wt"), "locus/issue-2", recorded.remoteRef("main"));
    await writeFile(join(wt.cwd, "b.txt"), "two\n");
    await wt.stageAll();
    await wt.commit("feat: b (#2)");
    events.length = 0;
    expect(await wt.push("locus/issue-2", { expect: "" })).toEqual({ ok: true });
    // The early request and the push command's own: an exchange client shares them as one.
    expect(events).toEqual(["auth write", "bundle", "auth write"]);
  });

  it("does not run repository hooks the agent could have written", async () => {
    const hook = join(dir, "work", ".git", "hooks", "pre-commit");
    await writeFile(hook, `#!/bin/sh\ntouch ${join(dir, "hook-ran")}\nexit 1\n`);
    await chmod(hook, 0o755);
    await writeFile(join(dir, "work", "c.txt"), "c\n");
    await git.stageAll();
    await git.commit("c");
    await expect(readFile(join(dir, "hook-ran"))).rejects.toThrow();
  });

  it("aborts a conflicting rebase and names the files", async () => {
    await writeFile(join(dir, "work", "a.txt"), "mine\n");
    await git.stageAll();
    await git.commit("mine");
    const other = join(dir, "other");
    await sh(dir, ["clone", "--quiet", join(dir, "remote.git"), "other"]);
    await writeFile(join(other, "a.txt"), "theirs\n");
    await sh(other, ["commit", "--quiet", "-am", "theirs"]);
    await sh(other, ["push", "--quiet", "origin", "main"]);
    await git.fetchBranches(["main"]);

    const result = await git.rebase(git.remoteRef("main"));

    expect(result).toEqual({ ok: false, conflicts: ["a.txt"] });
    expect(await sh(join(dir, "work"), ["status", "--porcelain"])).toBe("");
  });
});
