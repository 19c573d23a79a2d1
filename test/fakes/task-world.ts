/**
 * A world for running a mode's real task in process, without the bundle: the
 * typed GitHub fake, a real bare remote seeded with the project's files, the
 * real git client and agent runner (in the run's sandbox where the machine has
 * bubblewrap, as test/needs-bubblewrap.ts decides) talking to the in-process
 * Anthropic fake, the fake's clock, a log kept in memory and the secret mask
 * built like the Action's. `context()` builds what action/run.ts builds for
 * one run, from a fresh clone as a runner's checkout is (its config read from
 * there, so a test may push a change to it); `close()` removes
 * everything. The bundled Action's own runs stay in test/action/ for what
 * needs the process boundary (inputs, outputs, the environment, exit codes).
 */
import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { createAgentRunner } from "../../action/create-agent-runner.ts";
import { createRunSandbox } from "../../lib/agent/run-sandbox.ts";
import { loadConfig, type LocusConfig } from "../../lib/config/index.ts";
import { commitIdentity } from "../../lib/git/commit-identity.ts";
import { createGitClient } from "../../lib/git/git-client.ts";
import { createSecretMask } from "../../lib/secrets/secret-mask.ts";
import { scrubEnvironment } from "../../lib/sandbox/environment.ts";
import type { Sandbox } from "../../lib/sandbox/sandbox.ts";
import type { ActionContext } from "../../lib/task/context.ts";
import { renderJobSummary } from "../../lib/task/job-summary.ts";
import type { ModeResult } from "../../lib/task/task-report.ts";
import { startAnthropicFake, type AnthropicFake } from "../../sandbox/anthropic-fake/server.ts";
import { randomAppSlug, randomOwner, randomRepoName } from "../../sandbox/github-sim/random-names.ts";
import { filesForThisMachine } from "../needs-bubblewrap.ts";
import { personGitEnv, PROJECT_FILES } from "../project-files.ts";
import { memoryLog } from "./action-context.ts";
import { createGitHubFake, type GitHubFake, type GitHubFakeOptions } from "./github-fake.ts";
import { followingRemote } from "./remote-branches.ts";
import { committingToRemote } from "./remote-commits.ts";
import { requireSignedCommits } from "./remote-rules.ts";

const exec = promisify(execFile);

/** The project a world's remote starts with, as the bundle harness seeds it. */
export const WORLD_FILES = PROJECT_FILES;

/** The run's secrets, in the environment as the Action's inputs put them there: none may leak. */
export const WORLD_SECRETS = {
  githubToken: "ghs_worldTokenDoNotLeak0123456789abcdefABCD",
  anthropicKey: "sk-ant-api03-worldKeyDoNotLeak0123456789abcdefghij",
} as const;

export interface TaskWorldOptions {
  /** The repository's files on `main` (a `.github/locus.yml` among them is the run's config). */
  readonly files?: Readonly<Record<string, string>>;
  readonly github?: GitHubFakeOptions;
}

export interface TaskWorld {
  /** The gateway's fake, its branches and pull requests following the remote: seed it, read its store, `calls` and `moments`. */
  readonly github: GitHubFake;
  /** The model API: script it with `setScript`, read what the agent sent in `requests`. */
  readonly anthropic: AnthropicFake;
  /** Every line the world's runs logged, in order. */
  readonly log: ReturnType<typeof memoryLog>;
  /** `<bot login> <id+login@users.noreply.github.com>`, as Locus's commits name their author. */
  readonly botAuthor: string;
  /** The commits GitHub made (and signs) through `createCommitOnBranch`, for `commit.via: api`. */
  readonly verifiedCommits: ReadonlySet<string>;
  /** From now on a ruleset requires signed commits on every branch: a plain push is refused with GH013 (remote-rules.ts). */
  requireSignedCommits(): Promise<void>;
  /** A clone of the remote for the test's own git, as a human would have it. */
  readonly scratch: string;
  /**
   * One run's context, as action/run.ts builds it: a fresh checkout of the remote, the
   * config from its `.github/locus.yml`, the sandbox, git client and agent runner.
   */
  context(overrides?: RunOverrides): Promise<ActionContext>;
  /** git in the scratch clone, fetched first. */
  git(args: readonly string[]): Promise<string>;
  /** A file of `branch` on the remote. */
  show(branch: string, path: string): Promise<string>;
  /** The job summary the Action writes for this result. */
  summary(mode: string, result: ModeResult): string;
  close(): Promise<void>;
}

/** What one run may set apart from the world's defaults. */
export interface RunOverrides {
  /** Who started the run (the bot Locus acts as unless said). */
  readonly actor?: string;
  readonly command?: string;
  /** The delivery the app dispatched the run for (`test-<n>` unless said). */
  readonly delivery?: string;
  /** The workflow run's page, by which the task learns when GitHub created the run (a run seeded with `seedRun`). */
  readonly runUrl?: string;
}

/** git with a person's identity and an empty HOME (no global config), as the harness runs it. */
function gitIn(cwd: string, home: string) {
  const env = personGitEnv(home);
  return async (args: readonly string[]) => (await exec("git", [...args], { cwd, env })).stdout;
}

async function seedRemote(
  dir: string,
  files: Readonly<Record<string, string>>,
  home: string,
): Promise<string> {
  const remote = join(dir, "remote.git");
  const seed = join(dir, "seed");
  await mkdir(seed, { recursive: true });
  const git = gitIn(seed, home);
  await exec("git", ["init", "--quiet", "--bare", "--initial-branch=main", remote]);
  await git(["init", "--quiet", "--initial-branch=main"]);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(seed, path)), { recursive: true });
    await writeFile(join(seed, path), text);
  }
  await git(["add", "--all"]);
  await git(["commit", "--quiet", "-m", "Initial commit"]);
  await git(["push", "--quiet", remote, "HEAD:main"]);
  await rm(seed, { recursive: true, force: true });
  return remote;
}

/** The checkout's `.github/locus.yml`, read at each run as the Action reads it (absent: the defaults). */
async function configOf(workspace: string): Promise<LocusConfig> {
  const text = await readFile(join(workspace, ".github/locus.yml"), "utf8").catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
    throw error;
  });
  const loaded = loadConfig(text);
  if (!loaded.ok)
    throw new Error(`the world's config is invalid: ${loaded.errors.map((e) => e.message).join("; ")}`);
  return loaded.config;
}

export async function startTaskWorld(options: TaskWorldOptions = {}): Promise<TaskWorld> {
  const dir = await mkdtemp(join(tmpdir(), "locus-task-world-"));
  const home = join(dir, "home");
  await mkdir(home, { recursive: true });
  // Without bubblewrap (and not in CI) the config turns the sandbox off, as in the bundle's world.
  const files = filesForThisMachine({ ...(options.files ?? WORLD_FILES) });
  const remote = await seedRemote(dir, files, home);
  const scratch = join(dir, "scratch");
  await exec("git", ["clone", "--quiet", remote, scratch]);
  const scratchGit = gitIn(scratch, home);
  // The app's slug, its bot's id and the repository's owner vary as between real installs.
  const fake = createGitHubFake({
    repo: { owner: randomOwner(), repo: randomRepoName() },
    self: `${randomAppSlug()}[bot]`,
    ...options.github,
  });
  const botId = 100_000 + randomInt(900_000);
  const verifiedFile = join(dir, "verified-commits");
  await writeFile(verifiedFile, "");
  // A pull request opens from what git pushed, and shows git's diff; GitHub's own commits land on the remote.
  const github = committingToRemote(followingRemote(fake, remote), remote, {
    author: { login: fake.store.self, id: botId },
    verifiedFile,
  });
  const anthropic = await startAnthropicFake();
  const log = memoryLog();
  const identity = { login: github.store.self, id: botId };
  const secrets = [WORLD_SECRETS.githubToken, WORLD_SECRETS.anthropicKey];
  const mask = createSecretMask(secrets);
  // What a runner's process environment holds: the Action's inputs, secrets among them.
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    "INPUT_GITHUB-TOKEN": WORLD_SECRETS.githubToken,
    "INPUT_ANTHROPIC-API-KEY": WORLD_SECRETS.anthropicKey,
    ANTHROPIC_BASE_URL: anthropic.url,
  };
  const sandboxes: Sandbox[] = [];
  const checkoutEnv = { PATH: env.PATH, HOME: home };
  let runs = 0;

  async function context(overrides: RunOverrides = {}) {
    runs += 1;
    const root = join(dir, `run-${runs}`);
    const workspace = join(root, "workspace");
    const worktreeRoot = join(root, "temp");
    await mkdir(worktreeRoot, { recursive: true });
    await exec("git", ["clone", "--quiet", remote, workspace], { env: checkoutEnv });
    const config = await configOf(workspace);
    const sandbox = await createRunSandbox({
      mode: config.sandbox.mode,
      allow: config.sandbox.network.allow,
      workspace,
      provider: "builtin",
      env,
    });
    sandboxes.push(sandbox);
    const author = commitIdentity(identity, config.commit);
    const gitEnv = scrubEnvironment(env);
    // action/run.ts reads these two through a git client of their own in the sandbox, which starts a
    // sandbox session for them alone (bubblewrap and its init, ~0.1 s of CPU). Here the world made the
    // checkout: the origin is the remote it cloned, and HEAD is read on the host. The bundled
    // Action's own runs (test/action) keep that path.
    const remoteUrl = remote;
    const trustedCommit = (
      await exec("git", ["rev-parse", "HEAD"], { cwd: workspace, env: checkoutEnv })
    ).stdout.trim();
    const git = createGitClient({
      cwd: workspace,
      identity: author,
      env: gitEnv,
      remoteUrl,
      sandbox,
      // As action/run.ts: the worktrees' folder is a standing mount of the checkout's one git session.
      repositoryPath: join(worktreeRoot, "locus-repository"),
      worktreesDir: join(worktreeRoot, "locus-worktrees"),
      secrets: () => secrets,
      // `commit.via: api`: GitHub makes (and signs) the commits, as action/run.ts wires it.
      ...(config.commit.via === "api" ? { commitWrites: github } : {}),
    });
    const ctx: ActionContext = {
      gateway: github,
      git,
      runner: createAgentRunner("builtin", config, env, WORLD_SECRETS.anthropicKey, sandbox),
      clock: github.store.clock,
      log,
      config,
      identity,
      run: {
        id: String(9000 + runs),
        worktreeRoot,
        actor: overrides.actor ?? github.store.self,
        ...(overrides.runUrl ? { url: overrides.runUrl } : {}),
        repositoryUrl: `https://github.test/${github.repo.owner}/${github.repo.repo}`,
        ...(trustedCommit ? { trustedCommit } : {}),
        ...(sandbox.kind === "off" ? { unsandboxed: true } : {}),
      },
      model: config.agent.model,
      maxTurns: config.agent.maxTurns,
      signal: new AbortController().signal,
      mask,
      delivery: overrides.delivery ?? `test-${runs}`,
      command: overrides.command ?? "",
    };
    return ctx;
  }

  async function git(args: readonly string[]): Promise<string> {
    await scratchGit(["fetch", "--quiet", "--prune", "origin"]);
    return scratchGit(args);
  }

  return {
    github,
    anthropic,
    log,
    botAuthor: `${identity.login} <${identity.id}+${identity.login}@users.noreply.github.com>`,
    verifiedCommits: github.verifiedCommits,
    requireSignedCommits: () =>
      requireSignedCommits(remote, {
        verifiedFile,
        rulesUrl: `https://github.test/${github.repo.owner}/${github.repo.repo}/rules`,
      }),
    scratch,
    context,
    git,
    show: (branch, path) => git(["show", `origin/${branch}:${path}`]),
    summary: (mode, result) => mask(renderJobSummary(mode, result)),
    async close() {
      await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
      await anthropic.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
