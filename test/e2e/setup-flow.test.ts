/**
 * The README's install from zero, on the simulator, with `npm start` as a real
 * child process in a fresh directory: without credentials it opens Probot's
 * setup flow; its page posts `app.yml` as a manifest to GitHub, which
 * redirects back with a code; the server trades the code
 * (`POST /app-manifests/{code}/conversions`) and writes the credentials to
 * `.env`. Started again, `npm start` reads `.env` (a weak secret there stops
 * it with the reason), mounts the token exchange, and the webhooks GitHub
 * sends to the URL the manifest registered reach it: installing creates the
 * labels, and a labelled issue ends in Locus's pull request.
 *
 * The app's public URL is a small proxy the test owns, as a reverse proxy in
 * front of a real server would be, so it stays the same across restarts while
 * the server listens on a new port each time. The app works in another
 * process, so the test checks GitHub's state again after each request that is
 * not its own, until what it waits for holds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitHubSimulator, type GitHubSimulator } from "../../sandbox/github-sim/index.ts";
import { randomOwner, randomRepoName } from "../../sandbox/github-sim/random-names.ts";
import { startReplayModel, type ReplayModel } from "../../sandbox/replay/replay-model.ts";
import { DEMO_ISSUES, DEMO_TRANSCRIPTS } from "../../sandbox/replay/transcripts.ts";
import type { ActionRunner } from "../../sandbox/world/action-runner.ts";
import { calledWorkflows, readmeCallerWorkflow } from "../../sandbox/world/caller-workflow.ts";
import { nodeTestCi } from "../../sandbox/world/node-test-ci.ts";
import { SAMPLE_PROJECT } from "../../sandbox/world/sample-project.ts";
import type { RepositoryActionsSettings } from "../../sandbox/world/workflow-inputs.ts";
import { readmeActionRunner } from "./readme-runner.ts";
import { commitAsOwner } from "./owner-commit.ts";
import { filesForThisMachine } from "../needs-bubblewrap.ts";
import { NODE_WITH_COMPILE_CACHE } from "../node-with-compile-cache.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SERVER = join(ROOT, "app/server.ts");
// Names GitHub or the operator choose: random, never ours.
const OWNER = randomOwner();
const REPO = randomRepoName();
const ACTION = "locus-dev/locus";

let sim: GitHubSimulator;
let replay: ReplayModel;
let workDir: string;
let readme: string;
const settings: RepositoryActionsSettings & {
  vars: Record<string, string>;
  secrets: Record<string, string>;
} = { vars: {}, secrets: {} };
const children = new Set<ChildProcess>();
/** Requests the test itself sends carry this header; the simulator's observer counts only the others. */
const PROBE = "x-setup-flow-probe";
const activity: { requests: number; wake?: () => void } = { requests: 0 };

/** The app's public address: forwards every request to wherever the server listens now. */
const front: { server?: Server; url: string; backend: number } = { url: "", backend: 0 };

async function startFront(): Promise<void> {
  const server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      {
        host: "127.0.0.1",
        port: front.backend,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  front.server = server;
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Started {
  readonly child: ChildProcess;
  /** The port it listens on, or how it ended with what it said. */
  readonly outcome: Promise<{ port: number } | { code: number | null; stderr: string }>;
}

/** `npm start` (node app/server.ts) in `dir`, with the environment an operator's shell would give it. */
function npmStart(dir: string): Started {
  const host = new URL(sim.url).host;
  // The file starts the server three times: with the compile cache, the later starts compile nothing again.
  const [node = process.execPath, ...compileCache] = NODE_WITH_COMPILE_CACHE;
  const child = spawn(node, [...compileCache, SERVER], {
    cwd: dir,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: dir,
      PORT: "0",
      HOST: "127.0.0.1",
      GHE_HOST: host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "info",
      LOCUS_RECONCILE_MINUTES: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const outcome = new Promise<{ port: number } | { code: number | null; stderr: string }>((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const port = /(?:Listening on http:\/\/[^\s:]+:|Locus listening on port )(\d+)/.exec(stdout)?.[1];
      if (port) resolve({ port: Number(port) });
    });
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("exit", (code) => resolve({ code, stderr: `${stderr}${stdout}` }));
  });
  return { child, outcome };
}

async function listening(started: Started): Promise<number> {
  const outcome = await started.outcome;
  if (!("port" in outcome)) throw new Error(`npm start ended (${outcome.code}): ${outcome.stderr}`);
  return outcome.port;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Waits until `done` holds, checking after the simulator settles and again after each request by someone else. */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (;;) {
    const seen = activity.requests;
    await sim.settle();
    if (await done()) return;
    if (activity.requests === seen) await new Promise<void>((resolve) => (activity.wake = resolve));
  }
}

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sim.apiUrl}${path}`, {
    method,
    headers: { authorization: `token ${sim.as("alice")}`, "content-type": "application/json", [PROBE]: "1" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Commits files to the default branch over git, as the repository's owner. */
async function commit(files: Record<string, string>): Promise<void> {
  await commitAsOwner({ sim, dir: workDir, owner: OWNER, repo: REPO, files, message: "Set up Locus" });
}

/** A directory holding what `npm start` reads from its working directory: app.yml and package.json. */
async function checkoutDir(name: string): Promise<string> {
  const dir = join(workDir, name);
  await mkdir(dir);
  await copyFile(join(ROOT, "app.yml"), join(dir, "app.yml"));
  await copyFile(join(ROOT, "package.json"), join(dir, "package.json"));
  return dir;
}

beforeAll(async () => {
  readme = await readFile(join(ROOT, "README.md"), "utf8");
  workDir = await mkdtemp(join(tmpdir(), "locus-setup-flow-"));
  replay = await startReplayModel(DEMO_TRANSCRIPTS);
  const late: { runner?: ActionRunner } = {};
  // No webhook URL or secret yet: registering the app sets both.
  sim = await startGitHubSimulator({
    workDir: join(workDir, "github"),
    calledWorkflows: calledWorkflows(),
    runner: (request) => {
      if (!late.runner) throw new Error("no runner yet");
      return late.runner.runner(request);
    },
    jobWorkflowRef: (run) =>
      run.workflowPath === ".github/workflows/locus.yml"
        ? `${ACTION}/.github/workflows/locus.yml@refs/tags/v1`
        : undefined,
    ci: { execute: nodeTestCi() },
    observe: (exchange) => {
      if (exchange.requestHeaders[PROBE]) return;
      activity.requests++;
      activity.wake?.();
    },
  });
  late.runner = await readmeActionRunner({
    sim,
    workDir,
    modelUrl: replay.url,
    action: ACTION,
    settings,
  });
  const files = Object.fromEntries(
    Object.entries(SAMPLE_PROJECT).filter(([path]) => !path.startsWith(".github/")),
  );
  const seeded = await sim.seed.repo(`${OWNER}/${REPO}`, { files, install: false, private: true });
  seeded.collaborator("alice", "write");
  await startFront();
}, 120_000);

afterAll(async () => {
  for (const child of children) await stop(child);
  await new Promise((resolve) => front.server?.close(resolve));
  await sim?.close();
  await replay?.close();
  await rm(workDir, { recursive: true, force: true });
});

describe("npm start with a .env whose webhook secret is weak", () => {
  it("stops with the reason and where the secret came from", async () => {
    const dir = await checkoutDir("weak");
    const key = JSON.stringify(sim.appPrivateKey ?? "");
    await writeFile(
      join(dir, ".env"),
      `APP_ID=${sim.app.id}\nPRIVATE_KEY=${key}\nWEBHOOK_SECRET=development\n`,
    );
    const outcome = await npmStart(dir).outcome;
    expect(outcome).toMatchObject({ code: 1 });
    const said = "stderr" in outcome ? outcome.stderr : "";
    expect(said).toContain("WEBHOOK_SECRET is too weak");
    expect(said).toContain(join(dir, ".env"));
  }, 60_000);
});

describe("the README's install from zero: setup flow, .env, npm start, a label, a PR", () => {
  it("registers the app from app.yml and ends with Locus's pull request", async () => {
    // README step 1: `npm start` without credentials opens Probot's setup flow, writing `.env`.
    expect(readme).toMatch(/`npm start` without credentials opens Probot's setup flow/);
    expect(readme).toContain("`.env`");
    const dir = await checkoutDir("app");
    const setup = npmStart(dir);
    front.backend = await listening(setup);

    // The setup page posts the manifest to GitHub, with the webhook URL it was opened at.
    const page = await (await fetch(`${front.url}/probot`)).text();
    const action = /<form action="([^"]+)"/.exec(page)?.[1] ?? "";
    const manifest = /name="manifest" id="manifest" value='([^']*)'/.exec(page)?.[1] ?? "";
    expect(action).toBe(`${sim.url}/settings/apps/new`);
    const posted = JSON.parse(manifest) as { hook_attributes: { url: string }; redirect_url: string };
    expect(posted.hook_attributes.url).toBe(`${front.url}/`);
    const confirmed = await fetch(action, {
      method: "POST",
      body: new URLSearchParams({ manifest }),
      redirect: "manual",
    });
    expect(confirmed.status).toBe(302);
    const back = confirmed.headers.get("location") ?? "";
    expect(back).toMatch(new RegExp(`^${front.url}/probot/setup\\?code=`));
    const converted = await fetch(back, { redirect: "manual" });
    expect(converted.headers.get("location")).toBe(`${sim.url}/apps/${sim.app.slug}/installations/new`);
    const written = parseEnv(await readFile(join(dir, ".env"), "utf8"));
    expect(written["APP_ID"]).toBe(String(sim.app.id));
    expect(written["WEBHOOK_SECRET"]).toBe(sim.webhooks.secret);
    expect(sim.webhooks.url).toBe(`${front.url}/`);
    await stop(setup.child);

    // Step 2: the operator adds the app's public URL and starts it again; it reads `.env`.
    await writeFile(
      join(dir, ".env"),
      `${await readFile(join(dir, ".env"), "utf8")}\nLOCUS_APP_URL=${front.url}\n`,
    );
    front.backend = await listening(npmStart(dir));
    const exchange = await fetch(`${front.url}/locus/token`, { method: "POST", body: "{}" });
    expect(exchange.status).toBe(401);

    // Step 3: the repository's variable, secret, workflow and config, as the README shows them.
    settings.vars["LOCUS_APP_URL"] = front.url;
    settings.secrets["ANTHROPIC_API_KEY"] = "sk-ant-setup-flow-replay-key";
    // Without bubblewrap (and not in CI) a config turning the sandbox off comes along: needs-bubblewrap.ts.
    await commit(filesForThisMachine({ ".github/workflows/locus.yml": readmeCallerWorkflow(readme) }));

    // Step 4: installing sends the webhook to the registered URL; the app creates the labels.
    sim.seed.installation(OWNER, { webhooks: true });
    await until(async () => {
      const labels = (await api("GET", `/repos/${OWNER}/${REPO}/labels?per_page=100`)) as Array<{
        name: string;
      }>;
      return labels.some((label) => label.name === "locus:queued");
    });

    // Then: a labelled issue ends in a pull request by the app.
    const issue = (await api("POST", `/repos/${OWNER}/${REPO}/issues`, DEMO_ISSUES.capitalize)) as {
      number: number;
    };
    await api("POST", `/repos/${OWNER}/${REPO}/issues/${issue.number}/labels`, { labels: ["locus:queued"] });
    type Pull = { user: { login: string }; head: { ref: string } };
    let pulls: Pull[] = [];
    await until(async () => {
      pulls = (await api("GET", `/repos/${OWNER}/${REPO}/pulls`)) as Pull[];
      return pulls.length > 0;
    });
    expect(pulls.map((pull) => [pull.user.login, pull.head.ref])).toEqual([
      [sim.app.botLogin, `locus/issue-${issue.number}`],
    ]);
    const failed = sim.webhooks.deliveries.filter((delivery) => delivery.status !== 200);
    expect(failed.map((delivery) => delivery.event)).toEqual([]);
  }, 240_000);
});
