/**
 * The dependency review through Locus's gateway against the simulator: what a
 * branch adds, updates and removes in package.json, the advisory of a
 * vulnerable version, and a private repository without Advanced Security
 * answered as GitHub does (a check that cannot run, not an error).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitHubGateway } from "../../../lib/github/index.ts";
import { simulatorGateway } from "../../lib/github/helpers.ts";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import {
  startGitHubSimulator,
  type GitHubSimulator,
  type RepoSeeder,
} from "../../../sandbox/github-sim/index.ts";

const exec = promisify(execFile);
const manifest = (dependencies: Record<string, string>) =>
  `${JSON.stringify({ name: "w", dependencies, devDependencies: { vitest: "^5.0.0" } }, null, 2)}\n`;

let sim: GitHubSimulator;
let dir: string;

function gatewayFor(seeded: RepoSeeder): GitHubGateway {
  const token = mintInstallationToken(sim.store, sim.seed.installation(seeded.repo.owner).id).token;
  return simulatorGateway({
    apiUrl: sim.apiUrl,
    token,
    repo: { owner: seeded.repo.owner, repo: seeded.repo.name },
    ownLogins: [sim.app.botLogin],
  });
}

/** Pushes `locus/issue-1` with package.json changed to `dependencies`. */
async function pushBranch(seeded: RepoSeeder, dependencies: Record<string, string>): Promise<void> {
  const clone = await mkdtemp(join(dir, "clone-"));
  const git = (args: string[]) =>
    exec("git", args, {
      cwd: clone,
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: dir,
        GIT_AUTHOR_NAME: "T",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "T",
        GIT_COMMITTER_EMAIL: "t@example.com",
      },
    });
  await git(["clone", "--quiet", seeded.gitDir, "."]);
  await writeFile(join(clone, "package.json"), manifest(dependencies));
  await git(["commit", "--quiet", "-am", "deps"]);
  await git(["push", "--quiet", "origin", "HEAD:refs/heads/locus/issue-1"]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dependency-review-test-"));
  sim = await startGitHubSimulator({ delay: () => Promise.resolve(), workDir: join(dir, "sim") });
  sim.store.advisories.push({
    ghsaId: "GHSA-aaaa-bbbb-cccc",
    ecosystem: "npm",
    name: "left-pad",
    versions: ["1.0.0"],
    severity: "high",
    summary: "Pads to the left of the left",
  });
}, 60_000);

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe("compareDependencies", () => {
  it("names what the branch adds, updates and removes, with the advisories of what it adds", async () => {
    const seeded = await sim.seed.repo("acme/public-widgets", {
      private: false,
      files: { "package.json": manifest({ zod: "^3.0.0", chalk: "^5.0.0" }) },
    });
    await pushBranch(seeded, { zod: "^4.1.0", "left-pad": "1.0.0" });
    const review = await gatewayFor(seeded).compareDependencies("main", "locus/issue-1");
    expect(review.available).toBe(true);
    if (!review.available) return;
    const summary = review.changes.map(
      (c) => `${c.change} ${c.name}@${c.version} ${c.advisories.map((a) => a.id).join(",")}`,
    );
    expect(summary.sort()).toEqual([
      "added left-pad@1.0.0 GHSA-aaaa-bbbb-cccc",
      "added zod@4.1.0 ",
      "removed chalk@5.0.0 ",
      "removed zod@3.0.0 ",
    ]);
    expect(sim.store.permissionViolations).toEqual([]);
  });

  it("says why it cannot run on a private repository without Advanced Security, and runs once it has it", async () => {
    const seeded = await sim.seed.repo("acme/private-widgets", {
      private: true,
      files: { "package.json": manifest({}) },
    });
    await pushBranch(seeded, { "left-pad": "1.0.0" });
    const refused = await gatewayFor(seeded).compareDependencies("main", "locus/issue-1");
    expect(refused.available).toBe(false);
    expect(refused.available ? "" : refused.reason).toMatch(/^GitHub answered 403: .*Advanced Security/);
    seeded.repo.advancedSecurity = true;
    const allowed = await gatewayFor(seeded).compareDependencies("main", "locus/issue-1");
    expect(allowed.available && allowed.changes.map((c) => c.name)).toEqual(["left-pad"]);
  });
});
