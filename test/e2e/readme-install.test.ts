/**
 * The README's "Install on GitHub", followed literally on the simulator: the
 * app's grant is the one step 1 lists; the app starts from the environment
 * variables step 2 names, the way `npm start` reads them; the repository gets
 * the variable and secret step 3 names and the workflow file it names, with
 * the README's caller workflow and config blocks; installing (step 4) creates
 * the labels. Labelling an issue then ends in a pull request by Locus that
 * started the repository's CI. Each name is read from the README, so a step
 * that drifts from the code (a renamed variable, another file name, a
 * permission left out) fails here as it would fail a user.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { createProbot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocusServer } from "../../app/http-server.ts";
import { createLocusApp, type LocusApp } from "../../app/index.ts";
import { locusOctokit } from "../../app/octokit.ts";
import { logPort } from "../../app/probot-log.ts";
import { checkStartup, isConfigured } from "../../app/startup-check.ts";
import { createTokenExchangeRoute, tokenExchangeConfigFromEnv } from "../../app/token-exchange.ts";
import type { TokenRoute } from "../../app/token-route.ts";
import { startGitHubSimulator, type GitHubSimulator } from "../../sandbox/github-sim/index.ts";
import { startReplayModel, type ReplayModel } from "../../sandbox/replay/replay-model.ts";
import { DEMO_ISSUES, DEMO_TRANSCRIPTS } from "../../sandbox/replay/transcripts.ts";
import type { ActionRunner } from "../../sandbox/world/action-runner.ts";
import { calledWorkflows, readmeCallerWorkflow } from "../../sandbox/world/caller-workflow.ts";
import { nodeTestCi } from "../../sandbox/world/node-test-ci.ts";
import { SAMPLE_PROJECT } from "../../sandbox/world/sample-project.ts";
import type { RepositoryActionsSettings } from "../../sandbox/world/workflow-inputs.ts";
import { readmeActionRunner } from "./readme-runner.ts";
import { commitAsOwner } from "./owner-commit.ts";
import { randomOwner, randomRepoName } from "../../sandbox/github-sim/random-names.ts";
import { filesForThisMachine } from "../needs-bubblewrap.ts";

const README = fileURLToPath(new URL("../../README.md", import.meta.url));
const OWNER = randomOwner();
const REPO = randomRepoName();
const ACTION = "locus-dev/locus";
const WEBHOOK_SECRET = "readme-install-webhook-secret-0123456789";

/** The README's "Install on GitHub" steps, numbered as they are. */
function installSteps(readme: string): string[] {
  const section = /^## Install on GitHub\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
  const steps = [...section.matchAll(/^(\d+)\. ([\s\S]*?)(?=^\d+\. |^\*\*|^$)/gm)].map((m) => m[2] ?? "");
  if (steps.length !== 4) throw new Error(`expected 4 install steps in the README, found ${steps.length}`);
  return steps;
}

/** Step 1's "(permissions: contents write, …, metadata read; …)" as a permission set. */
function listedPermissions(step: string): Record<string, string> {
  const list = /\(permissions: ([^;]*);/.exec(step)?.[1] ?? "";
  return Object.fromEntries(
    list
      .replace(/\([^)]*\)/g, "")
      .split(",")
      .map((item) => item.trim().split(/\s+/))
      .map((words) => [words.slice(0, -1).join("_"), words.at(-1) ?? ""]),
  );
}

function named(step: string, what: string): string {
  const name = new RegExp(`the ${what} \`([^\`]+)\``).exec(step)?.[1];
  if (!name) throw new Error(`the README's step names no ${what}: ${step}`);
  return name;
}

/** The README's config example: the yaml block under "Configuration: `<path>`". */
function configExample(readme: string): { path: string; text: string } {
  const match = /^## Configuration: `([^`]+)`\n[\s\S]*?^```yaml\n([\s\S]*?)^```$/m.exec(readme);
  if (!match?.[1] || match[2] === undefined) throw new Error("the README shows no configuration file");
  return { path: match[1], text: match[2] };
}

let sim: GitHubSimulator;
let replay: ReplayModel;
let workDir: string;
let readme: string;
let steps: string[];
const settings: { vars: Record<string, string>; secrets: Record<string, string> } = { vars: {}, secrets: {} };
const app: { locus?: LocusApp; close?: () => Promise<void> } = {};

async function settle(): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await sim.settle();
    await app.locus?.work.drain();
    await sim.settle();
    const delivered = sim.webhooks.deliveries.every((d) => d.status !== null || d.error !== null);
    if ((app.locus?.work.size ?? 0) === 0 && delivered) return;
  }
  throw new Error("the app and the simulator did not settle");
}

beforeAll(async () => {
  readme = await readFile(README, "utf8");
  steps = installSteps(readme);
  workDir = await mkdtemp(join(tmpdir(), "locus-readme-install-"));
  replay = await startReplayModel(DEMO_TRANSCRIPTS);
  const repoSettings: RepositoryActionsSettings = settings;
  const late: { runner?: ActionRunner } = {};
  sim = await startGitHubSimulator({
    workDir: join(workDir, "github"),
    webhooks: { secret: WEBHOOK_SECRET },
    calledWorkflows: calledWorkflows(),
    runner: (request) => {
      if (!late.runner) throw new Error("no runner yet");
      return late.runner.runner(request);
    },
    jobWorkflowRef: (run) =>
      run.workflowPath === ".github/workflows/locus.yml"
        ? `${ACTION}/.github/workflows/locus.yml@refs/tags/v1`
        : undefined,
    // The sample project's own CI: `node --test` on every pull request head GitHub would run it on.
    ci: { execute: nodeTestCi() },
  });
  late.runner = await readmeActionRunner({
    sim,
    workDir,
    modelUrl: replay.url,
    action: ACTION,
    settings: repoSettings,
  });
  const files = Object.fromEntries(
    Object.entries(SAMPLE_PROJECT).filter(([path]) => !path.startsWith(".github/")),
  );
  const seeded = await sim.seed.repo(`${OWNER}/${REPO}`, { files, install: false, private: true });
  seeded.collaborator("alice", "write");
}, 120_000);

afterAll(async () => {
  await app.close?.();
  await sim?.close();
  await replay?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** Step 2: the app as `npm start` runs it, from the environment variables the step names. */
async function runTheApp(step: string): Promise<string> {
  const names = [...step.matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1] ?? "");
  const values: Record<string, string> = {
    APP_ID: String(sim.app.id),
    PRIVATE_KEY: sim.appPrivateKey ?? "",
    WEBHOOK_SECRET,
  };
  // What the step names, with the values the README says they hold; GHE_* point Probot at the simulator.
  const host = new URL(sim.url);
  const env: Record<string, string> = {
    GHE_HOST: host.host,
    GHE_PROTOCOL: "http",
    LOCUS_OIDC_ISSUER: sim.oidc.issuer,
  };
  for (const name of names) {
    const value = values[name];
    if (value !== undefined) env[name] = value;
  }
  expect(checkStartup({ ...env, LOCUS_APP_URL: "http://127.0.0.1:1" })).toBeUndefined();
  expect(isConfigured(env)).toBe(true);
  const log = pino({ level: "silent" });
  const locus = createLocusApp();
  const probot = createProbot({
    env,
    overrides: { log, Octokit: locusOctokit(logPort(log), { retryUnitMs: 0, minWriteIntervalMs: 0 }) },
  });
  const late: { route?: TokenRoute } = {};
  const server = await createLocusServer({
    probot,
    appFn: locus.appFn,
    tokenRoute: (request, response) => late.route?.(request, response),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The app's public URL, under the name the step gives it.
  const urlName = names.find((name) => name.endsWith("_URL")) ?? "";
  env[urlName] = appUrl;
  late.route = createTokenExchangeRoute(probot, tokenExchangeConfigFromEnv(env), logPort(log));
  sim.webhooks.url = `${appUrl}/api/github/webhooks`;
  app.locus = locus;
  app.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return appUrl;
}

/** Commits files to the default branch over git, as the repository's owner. */
async function commit(files: Record<string, string>): Promise<void> {
  await commitAsOwner({
    sim,
    dir: workDir,
    owner: OWNER,
    repo: REPO,
    files,
    message: "Set up Locus as the README says",
  });
}

async function api(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sim.apiUrl}${path}`, {
    method,
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

describe("the README's Install on GitHub, followed on the simulator", () => {
  it("ends with a pull request by Locus that started the repository's CI", async () => {
    const [register = "", run = "", configure = "", install = ""] = steps;

    // 1. The app registered from app.yml is granted what the step lists.
    expect(register).toContain("app.yml");
    expect(sim.app.permissions).toEqual(listedPermissions(register));

    // 2. The app runs from the variables the step names.
    const appUrl = await runTheApp(run);

    // 3. The repository's variable and secret, its workflow file and its config, as the README shows them.
    settings.vars[named(configure, "variable")] = appUrl;
    settings.secrets[named(configure, "secret")] = "sk-ant-readme-install-replay-key";
    const workflowPath = /add `([^`]+\.yml)`/.exec(configure)?.[1] ?? "";
    const config = configExample(readme);
    await commit(
      filesForThisMachine({ [workflowPath]: readmeCallerWorkflow(readme), [config.path]: config.text }),
    );

    // 4. Installing creates the labels.
    expect(install).toMatch(/Install the app on the repository/);
    sim.seed.installation(OWNER, { webhooks: true });
    await settle();
    const labels = (await api(
      sim.as("alice"),
      "GET",
      `/repos/${OWNER}/${REPO}/labels?per_page=100`,
    )) as Array<{
      name: string;
    }>;
    expect(labels.map((label) => label.name)).toContain("locus:queued");

    // Then: label an issue.
    const alice = sim.as("alice");
    const issue = (await api(alice, "POST", `/repos/${OWNER}/${REPO}/issues`, DEMO_ISSUES.capitalize)) as {
      number: number;
    };
    await api(alice, "POST", `/repos/${OWNER}/${REPO}/issues/${issue.number}/labels`, {
      labels: ["locus:queued"],
    });
    await settle();

    const pulls = (await api(alice, "GET", `/repos/${OWNER}/${REPO}/pulls`)) as Array<{
      user: { login: string };
      head: { ref: string; sha: string };
    }>;
    expect(pulls.map((pull) => [pull.user.login, pull.head.ref])).toEqual([
      [sim.app.botLogin, `locus/issue-${issue.number}`],
    ]);
    const runs = sim.store.repos.get(`${OWNER}/${REPO}`)?.runs ?? [];
    const ci = runs.filter((r) => r.event === "pull_request" && r.headSha === pulls[0]?.head.sha);
    expect(ci.map((r) => [r.workflowPath, r.status])).toEqual([[".github/workflows/ci.yml", "completed"]]);
  }, 180_000);
});
