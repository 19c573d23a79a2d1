/**
 * Runs the bundled Action the way a runner does: a child process of
 * `dist/action.js` with `INPUT_*` and the Actions environment, a fresh clone
 * of the simulator's bare repository as `GITHUB_WORKSPACE` (origin is a local
 * path), an empty HOME (no global git identity), the GitHub simulator and the
 * Anthropic fake on 127.0.0.1, and CI set as on every runner.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startAnthropicFake, type AnthropicFake } from "../../sandbox/anthropic-fake/server.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import {
  startGitHubSimulator,
  type GitHubSimulator,
  type RepoSeeder,
} from "../../sandbox/github-sim/index.ts";
import { createActionOctokit, createGateway, type GitHubGateway } from "../../lib/github/index.ts";
import { actionBundle } from "../action-bundle.ts";
import { NODE_COMPILE_CACHE_ENV } from "../../sandbox/world/node-compile-cache.ts";
import { randomOwner, randomRepoName } from "../../sandbox/github-sim/random-names.ts";
import { filesForThisMachine } from "../needs-bubblewrap.ts";
import { personGitEnv, PROJECT_FILES } from "../project-files.ts";
import { hiddenMarker } from "../../lib/markers.ts";
import { renderStatusComment, type StatusState } from "../../lib/status/status-comment.ts";

const exec = promisify(execFile);

// Names vary as between real installs (random-names.ts); one pair per test file.
export const OWNER = randomOwner();
export const REPO = randomRepoName();
export const ANTHROPIC_KEY = "sk-ant-api03-testkeyDoNotLeak0123456789abcdefghij";

export { PROJECT_FILES };

export interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
}

/** A started Action process: signal or kill it, and `done` resolves when it has exited. */
export interface ActionProcess {
  readonly child: ChildProcess;
  readonly done: Promise<ActionRun>;
  /** Everything it has printed so far. */
  stdout(): string;
}

export interface Harness {
  readonly sim: GitHubSimulator;
  readonly fake: AnthropicFake;
  readonly repo: RepoSeeder;
  readonly token: string;
  /** Locus's bot in this world: `<random slug>[bot]` and its user id. */
  readonly bot: { readonly login: string; readonly id: number };
  /** `<bot login> <id+login@users.noreply.github.com>`, as Locus's commits name their author. */
  readonly botAuthor: string;
  readonly dir: string;
  /** The gateway, as Locus itself, for arranging and checking state. */
  readonly api: GitHubGateway;
  /** The gateway acting as a person. */
  as(login: string): GitHubGateway;
  /** Runs the Action with these inputs (mode, issue, pr, …) and extra environment. */
  run(inputs: Record<string, string>, env?: Record<string, string>): Promise<ActionRun>;
  /** Starts the Action like `run` without waiting for it. */
  start(inputs: Record<string, string>, env?: Record<string, string>): Promise<ActionProcess>;
  /** A scratch clone of the remote, as a human would have it. */
  readonly scratch: string;
  /** git in the scratch clone (fetched first). */
  git(args: string[]): Promise<string>;
  /** Files of `branch` on the remote. */
  show(branch: string, path: string): Promise<string>;
  close(): Promise<void>;
}

/** Uses the bundle built once for the test run (`test/action-bundle.ts`). */
export async function startHarness(
  files: Record<string, string> = PROJECT_FILES,
  options: {
    readonly now?: () => Date;
    /** A public repository, for tests where people without access comment; default private. */
    readonly public?: boolean;
    /** The workspace's origin is the simulator's smart HTTP URL (GitHub's push rules apply), not a local path. */
    readonly httpRemote?: boolean;
  } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), "locus-action-test-"));
  const bundle = await actionBundle();
  const sim = await startGitHubSimulator({
    delay: () => Promise.resolve(),
    workDir: join(dir, "sim"),
    runName: ({ inputs }) => workflowRunName(inputs),
    ...(options.now ? { now: options.now } : {}),
  });
  const fake = await startAnthropicFake();
  // Without bubblewrap (and not in CI) the world's config turns the sandbox off: see needs-bubblewrap.ts.
  const repo = await sim.seed.repo(`${OWNER}/${REPO}`, {
    files: filesForThisMachine(files),
    private: options.public !== true,
  });
  const installation = sim.seed.installation(OWNER);
  const token = mintInstallationToken(sim.store, installation.id).token;
  const home = join(dir, "home");
  await mkdir(home, { recursive: true });
  const scratch = join(dir, "scratch");
  await exec("git", ["clone", "--quiet", repo.gitDir, scratch]);
  let runs = 0;
  const quiet = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };
  const gatewayFor = (auth: string) =>
    createGateway({
      ownLogins: [sim.app.botLogin],
      octokit: createActionOctokit({
        token: auth,
        baseUrl: sim.apiUrl,
        log: quiet,
        minWriteIntervalMs: 0,
        retryUnitMs: 0,
        maxRetries: 0,
      }),
      repo: { owner: OWNER, repo: REPO },
      log: quiet,
    });

  const gitEnv = personGitEnv(home);

  async function git(args: string[]): Promise<string> {
    await exec("git", ["fetch", "--quiet", "--prune", "origin"], { cwd: scratch, env: gitEnv });
    const { stdout } = await exec("git", args, { cwd: scratch, env: gitEnv });
    return stdout;
  }

  async function start(
    inputs: Record<string, string>,
    env: Record<string, string> = {},
  ): Promise<ActionProcess> {
    runs += 1;
    const root = join(dir, `run-${runs}`);
    const workspace = join(root, "workspace");
    const temp = join(root, "temp");
    await mkdir(temp, { recursive: true });
    await exec("git", ["clone", "--quiet", repo.gitDir, workspace], { env: { ...gitEnv } });
    if (options.httpRemote) {
      const url = `${sim.url}/${OWNER}/${REPO}.git`;
      await exec("git", ["remote", "set-url", "origin", url], { cwd: workspace, env: gitEnv });
    }
    const outputFile = join(root, "output");
    const summaryFile = join(root, "summary.md");
    await writeFile(outputFile, "");
    await writeFile(summaryFile, "");
    const defaults: Record<string, string> = {
      mode: "",
      issue: "",
      pr: "",
      milestone: "",
      command: "",
      delivery: `test-${runs}`,
      "github-token": token,
      // The key fallback: the app's installation token, and its slug from create-github-app-token.
      "app-slug": sim.app.slug,
      "anthropic-api-key": ANTHROPIC_KEY,
      model: "claude-sonnet-4-6",
      // As action.yml: empty, so the config file's agent.provider decides.
      provider: "",
      "max-turns": "",
      "config-path": ".github/locus.yml",
    };
    const inputEnv: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...defaults, ...inputs })) {
      inputEnv[`INPUT_${name.toUpperCase()}`] = value;
    }
    const childEnv: Record<string, string> = {
      PATH: process.env["PATH"] ?? "",
      ...NODE_COMPILE_CACHE_ENV,
      HOME: home,
      // Every GitHub runner sets CI (https://docs.github.com/en/actions/reference/workflows-and-actions/variables#default-environment-variables),
      // and the sandbox passes it on. Without it npm, started in the sandbox, checks the registry for a
      // newer npm on every start: half a second of CPU and a network round trip no runner pays.
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: sim.apiUrl,
      GITHUB_GRAPHQL_URL: sim.graphqlUrl,
      GITHUB_SERVER_URL: sim.url,
      GITHUB_RUN_ID: String(9000 + runs),
      GITHUB_ACTOR: sim.app.botLogin,
      RUNNER_TEMP: temp,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      ANTHROPIC_BASE_URL: fake.url,
      ...inputEnv,
      ...env,
    };
    const child = spawn(process.execPath, [bundle], { cwd: workspace, env: childEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const done = new Promise<number | null>((resolve) => child.on("close", resolve)).then(async (code) => ({
      code,
      stdout,
      stderr,
      outputs: parseOutputs(await readFile(outputFile, "utf8")),
      summary: await readFile(summaryFile, "utf8"),
    }));
    return { child, done, stdout: () => stdout };
  }

  async function run(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
    return (await start(inputs, env)).done;
  }

  return {
    sim,
    fake,
    repo,
    token,
    bot: sim.bot,
    botAuthor: `${sim.bot.login} <${sim.bot.id}+${sim.bot.login}@users.noreply.github.com>`,
    dir,
    scratch,
    api: gatewayFor(token),
    as: (login) => gatewayFor(sim.as(login)),
    run,
    start,
    git,
    show: (branch, path) => git(["show", `origin/${branch}:${path}`]),
    async close() {
      await fake.close();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Everything a run published or logged: comments, PR and issue bodies, its summary, outputs and logs. */
export function publishedBy(h: Harness, run: ActionRun): string {
  const texts = [run.summary, run.stdout, run.stderr, JSON.stringify(run.outputs)];
  for (const repo of h.sim.store.repos.values()) {
    texts.push(...repo.comments.map((c) => c.body), ...[...repo.issues.values()].map((i) => i.body ?? ""));
  }
  return texts.join("\n");
}

/** What the reusable workflow's `run-name` expression evaluates to for these inputs. */
function workflowRunName(inputs: Record<string, string>): string {
  const target = inputs["milestone"] || inputs["pr"] || (inputs["issue"] ?? "").split(" ")[0] || "";
  return `Locus ${inputs["mode"] ?? ""}${target ? ` #${target}` : ""} (${inputs["delivery"] ?? ""})`;
}

/** The review thread whose first comment says `body`, as the simulator holds it, with its replies. */
export function reviewThread(h: Harness, body: string) {
  const comments = h.repo.repo.reviewComments;
  const root = comments.find((c) => c.body === body && c.inReplyTo === null);
  if (!root) throw new Error(`no thread starts with "${body}"`);
  return { root, replies: comments.filter((c) => c.inReplyTo === root.id) };
}

/** An issue's status comment as the app leaves it when it dispatches (arranged directly, as the app would write it). */
export async function arrangeStatus(
  h: Pick<Harness, "api">,
  issue: number,
  state: StatusState,
): Promise<void> {
  await h.api.createComment(
    issue,
    `${hiddenMarker("status")}\n${renderStatusComment({ headline: "Queued." }, state)}`,
  );
}

/** `name<<DELIM\nvalue\nDELIM` blocks, as @actions/core writes GITHUB_OUTPUT. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1] !== undefined) outputs[match[1]] = match[3] ?? "";
  }
  return outputs;
}
