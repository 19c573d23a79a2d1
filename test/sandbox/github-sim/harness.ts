import { execFile } from "node:child_process";
import { createSign } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Octokit as CoreOctokit } from "@octokit/core";
import { restEndpointMethods } from "@octokit/plugin-rest-endpoint-methods";
import { startGitHubSimulator } from "../../../sandbox/github-sim/index.ts";
import type { GitHubSimulator, GitHubSimulatorOptions } from "../../../sandbox/github-sim/index.ts";
import { createConformanceChecker } from "./openapi-conformance.ts";
import type { ConformanceChecker } from "./openapi-conformance.ts";

const run = promisify(execFile);
const Octokit = CoreOctokit.plugin(restEndpointMethods);
export type Client = InstanceType<typeof Octokit>;

export interface TestSim {
  sim: GitHubSimulator;
  conformance: ConformanceChecker;
  client: (token: string) => Client;
  tempDir: string;
  // Stops the simulator and fails the test if any exchange broke GitHub's OpenAPI contract.
  close: () => Promise<void>;
}

export async function startTestSim(options: GitHubSimulatorOptions = {}): Promise<TestSim> {
  const conformance = createConformanceChecker();
  const sim = await startGitHubSimulator({
    delay: () => Promise.resolve(),
    ...options,
    observe: conformance.observe,
  });
  const tempDir = await mkdtemp(join(tmpdir(), "github-sim-test-"));
  return {
    sim,
    conformance,
    tempDir,
    client: (token) => new Octokit({ baseUrl: sim.apiUrl, auth: token, request: { retries: 0 } }),
    async close() {
      await sim.close();
      await rm(tempDir, { recursive: true, force: true });
      conformance.assertClean();
    },
  };
}

export function appJwt(
  appId: number,
  privateKeyPem: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode({ iat: nowSeconds - 30, exp: nowSeconds + 540, iss: appId })}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(privateKeyPem).toString("base64url");
  return `${unsigned}.${signature}`;
}

export async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
    },
  });
  return stdout;
}

// Clones the bare repository, commits `files` on a new branch and pushes it with real git.
export async function pushBranch(
  gitDir: string,
  workDir: string,
  branch: string,
  files: Record<string, string>,
  message = "change",
): Promise<string> {
  const clone = await mkdtemp(join(workDir, "clone-"));
  await git(workDir, ["clone", "--quiet", gitDir, clone]);
  await git(clone, ["checkout", "--quiet", "-b", branch]);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(clone, path, ".."), { recursive: true });
    await writeFile(join(clone, path), content);
  }
  await git(clone, ["add", "--all"]);
  await git(clone, ["commit", "--quiet", "-m", message]);
  await git(clone, ["push", "--quiet", "origin", branch]);
  return (await git(clone, ["rev-parse", "HEAD"])).trim();
}
