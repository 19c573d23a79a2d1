/**
 * Pushes over smart HTTP carry the token the way GitHub takes it, and meet
 * GitHub's rules: a push needs `contents: write`, and no installation token
 * without `workflows` (which the app's manifest never grants) may push a
 * commit that touches `.github/workflows/`.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import { startTestSim, type TestSim } from "./harness.ts";

const exec = promisify(execFile);

let t: TestSim;
afterEach(() => t.close());

/** git with the token passed per command, as the Action passes it (never written to .git/config). */
function gitWith(token: string | undefined) {
  return async (cwd: string, args: string[]) => {
    const origin = new URL(t.sim.url);
    const auth = token
      ? {
          GIT_CONFIG_COUNT: "1",
          GIT_CONFIG_KEY_0: `http.${origin.protocol}//${origin.host}/.extraheader`,
          GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`,
        }
      : {};
    const env = {
      PATH: process.env["PATH"] ?? "",
      HOME: t.tempDir,
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Locus",
      GIT_AUTHOR_EMAIL: "locus@example.com",
      GIT_COMMITTER_NAME: "Locus",
      GIT_COMMITTER_EMAIL: "locus@example.com",
      ...auth,
    };
    return exec("git", args, { cwd, env });
  };
}

async function cloneAndCommit(token: string, files: Record<string, string>): Promise<string> {
  const git = gitWith(token);
  const clone = join(t.tempDir, `clone-${Math.random().toString(36).slice(2)}`);
  await git(t.tempDir, ["clone", "--quiet", `${t.sim.url}/acme/widgets.git`, clone]);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(clone, path, ".."), { recursive: true });
    await writeFile(join(clone, path), content);
  }
  await git(clone, ["add", "--all"]);
  await git(clone, ["commit", "--quiet", "-m", "change"]);
  return clone;
}

async function start(): Promise<number> {
  t = await startTestSim();
  await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n" } });
  return t.sim.seed.installation("acme").id;
}

describe("a push over HTTP", () => {
  it("with the installation's token lands", async () => {
    const installation = await start();
    const token = mintInstallationToken(t.sim.store, installation).token;
    const clone = await cloneAndCommit(token, { "a.txt": "two\n" });

    await gitWith(token)(clone, ["push", "--quiet", "origin", "HEAD:refs/heads/topic"]);

    const { stdout } = await gitWith(token)(clone, ["ls-remote", "origin", "topic"]);
    expect(stdout).toContain("refs/heads/topic");
  });

  it("touching .github/workflows/ is refused without the workflows permission", async () => {
    const installation = await start();
    const token = mintInstallationToken(t.sim.store, installation).token;
    const clone = await cloneAndCommit(token, { ".github/workflows/ci.yml": "on: push\n" });

    const pushed = gitWith(token)(clone, ["push", "origin", "HEAD:refs/heads/topic"]);

    await expect(pushed).rejects.toMatchObject({
      stderr: expect.stringContaining(
        "refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission",
      ) as unknown,
    });
    const { stdout } = await gitWith(token)(clone, ["ls-remote", "origin", "topic"]);
    expect(stdout).toBe("");
  });

  it("is refused to a token without contents: write, and to no token at all", async () => {
    const installation = await start();
    const reader = mintInstallationToken(t.sim.store, installation, {
      metadata: "read",
      contents: "read",
    }).token;
    const clone = await cloneAndCommit(reader, { "a.txt": "two\n" });

    await expect(gitWith(reader)(clone, ["push", "origin", "HEAD:refs/heads/topic"])).rejects.toMatchObject({
      stderr: expect.stringContaining("403") as unknown,
    });
    await expect(gitWith(undefined)(clone, ["push", "origin", "HEAD:refs/heads/topic"])).rejects.toThrow();
  });

  it("with new unsigned commits is refused on a branch a signatures ruleset covers, and lands on one it excludes", async () => {
    const installation = await start();
    const token = mintInstallationToken(t.sim.store, installation).token;
    const repo = t.sim.store.repos.get("acme/widgets");
    if (repo) {
      repo.rulesets = [
        {
          name: "signed",
          enforcement: "active",
          conditions: { ref_name: { include: ["~ALL"], exclude: ["refs/heads/scratch/*"] } },
          rules: [{ type: "required_signatures" }],
        },
      ];
    }
    const clone = await cloneAndCommit(token, { "a.txt": "two\n" });

    await expect(gitWith(token)(clone, ["push", "origin", "HEAD:refs/heads/topic"])).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /GH013: Repository rule violations found for refs\/heads\/topic\.[\s\S]*- Commits must have verified signatures\./,
      ) as unknown,
    });
    await gitWith(token)(clone, ["push", "--quiet", "origin", "HEAD:refs/heads/scratch/one"]);
    const { stdout } = await gitWith(token)(clone, ["ls-remote", "origin", "topic", "scratch/one"]);
    expect(stdout).not.toContain("refs/heads/topic");
    expect(stdout).toContain("refs/heads/scratch/one");
  });

  it("adding a GitHub token is refused by push protection", async () => {
    const installation = await start();
    const token = mintInstallationToken(t.sim.store, installation).token;
    const repo = t.sim.store.repos.get("acme/widgets");
    if (repo) repo.pushProtection = true;
    const clone = await cloneAndCommit(token, { "config.txt": `token=ghp_${"a1B2".repeat(9)}\n` });

    await expect(gitWith(token)(clone, ["push", "origin", "HEAD:refs/heads/topic"])).rejects.toMatchObject({
      stderr: expect.stringContaining("- Push cannot contain secrets") as unknown,
    });
  });
});
