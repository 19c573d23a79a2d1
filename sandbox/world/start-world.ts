/**
 * The whole of Locus on one machine: the GitHub simulator serving a bare
 * repository of the sample project, the real Locus app behind its real
 * server receiving signed webhooks over loopback, a local runner executing
 * each dispatched workflow run with the bundled Action, and a model (the real
 * Anthropic API with a key, the offline replay model without). Everything a
 * person does goes through the simulator's HTTP API; the world only reports
 * what happens, as events.
 */
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { restEndpointMethods } from "@octokit/plugin-rest-endpoint-methods";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import type { LocusApp } from "../../app/index.ts";
import type { ExchangeEvent } from "../../app/token-route.ts";
import { cachedActionBundle } from "../../scripts/action-bundle-cache.ts";
import {
  startGitHubSimulator,
  type Exchange,
  type GitHubSimulator,
  type RunnerRequest,
  type WebhookDelivery,
} from "../github-sim/index.ts";
import { startReplayModel, type ReplayModel } from "../replay/replay-model.ts";
import { DEMO_TRANSCRIPTS, type Transcript } from "../replay/transcripts.ts";
import {
  createActionRunner,
  type ActionRunner,
  type FinishedRun,
  type ModelEndpoint,
} from "./action-runner.ts";
import { startAppOnSimulator } from "./app-on-simulator.ts";
import { nodeTestCi } from "./node-test-ci.ts";
import { SAMPLE_PROJECT } from "./sample-project.ts";
import { calledWorkflows } from "./caller-workflow.ts";
import { randomAppSlug, randomOwner, randomRepoName } from "../github-sim/random-names.ts";

export const HUMAN = "alice";

/** What a world is called: by default random, as every real install differs (random-names.ts). */
export interface WorldNames {
  readonly owner: string;
  readonly repo: string;
  /** The app's slug: Locus is `<appSlug>[bot]`. */
  readonly appSlug: string;
}

const WEBHOOK_SECRET = "sandbox-webhook-secret-0123456789abcdef";

export type WorldEvent =
  | { readonly type: "webhook"; readonly delivery: WebhookDelivery }
  | { readonly type: "exchange"; readonly exchange: Exchange }
  | { readonly type: "token-exchange"; readonly event: ExchangeEvent }
  | { readonly type: "run-start"; readonly run: RunnerRequest; readonly inputs: Record<string, string> }
  | { readonly type: "run-line"; readonly run: RunnerRequest; readonly line: string }
  | { readonly type: "run-end"; readonly run: RunnerRequest; readonly finished: FinishedRun }
  | { readonly type: "app-log"; readonly level: "warn" | "error"; readonly message: string };

export interface WorldOptions {
  /** Defaults to ANTHROPIC_API_KEY from the environment: set means the real API, unset the replay model. */
  readonly anthropicApiKey?: string;
  readonly transcripts?: readonly Transcript[];
  readonly onEvent?: (event: WorldEvent) => void;
  /** The simulator's port (0: any free one). */
  readonly port?: number;
  /**
   * An Action bundle already built from the current sources; without it the world takes the one
   * built for these sources (scripts/action-bundle-cache.ts), building it if there is none.
   */
  readonly bundle?: string;
  /**
   * The runs' `github-token` input, which with the token exchange serves only workflow-run calls
   * (the stale sweep, fix-ci's job logs). Default: each run's own GITHUB_TOKEN, with the permissions
   * its workflow file gives the job.
   */
  readonly githubToken?: () => string;
  /**
   * Provider `acp`: the ACP agent to start (`agent.acp.command`), written into the sample project's
   * `.github/locus.yml`, instead of the built-in agent.
   */
  readonly acpAgent?: readonly string[];
  /** The runner's PATH (default: this process's), where a user's installed agent is found. */
  readonly runnerPath?: string;
  /** Fixed names (the demo's readable ones); default: a random owner, repository and app slug. */
  readonly names?: WorldNames;
  /** A public repository; default private, as most repositories Locus works on are. */
  readonly public?: boolean;
  /** `off` writes `sandbox.mode: off` into the sample project's `.github/locus.yml` (default: required). */
  readonly sandbox?: "required" | "off";
}

const RestClient = Octokit.plugin(restEndpointMethods, paginateRest);
export type RestClient = InstanceType<typeof RestClient>;

export interface World {
  readonly sim: GitHubSimulator;
  readonly locus: LocusApp;
  readonly owner: string;
  readonly repo: string;
  readonly gitDir: string;
  readonly workDir: string;
  readonly webhookUrl: string;
  /** The replay model, or undefined when the real API is used. */
  readonly replay: ReplayModel | undefined;
  /** Which agent works the tasks: the built-in one (on the replay model or the real API) or an ACP agent. */
  readonly provider: "builtin" | "acp";
  readonly runner: ActionRunner;
  /** A REST client acting as `login`, like a person in GitHub's web UI. */
  as(login: string): RestClient;
  /** Waits until webhooks, workflow runs and the app's work have all finished. */
  settle(): Promise<void>;
  /** Stops everything; `keepFiles` leaves the bare repository and the runs' workspaces on disk. */
  close(options?: { keepFiles?: boolean }): Promise<void>;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const emit = options.onEvent ?? (() => undefined);
  const workDir = await mkdtemp(join(tmpdir(), "locus-sandbox-"));
  const apiKey = options.anthropicApiKey ?? process.env["ANTHROPIC_API_KEY"] ?? "";
  const [bundle, replay] = await Promise.all([
    options.bundle ?? cachedActionBundle(),
    apiKey ? Promise.resolve(undefined) : startReplayModel(options.transcripts ?? DEMO_TRANSCRIPTS),
  ]);
  const model: ModelEndpoint = replay
    ? { baseUrl: replay.url, apiKey: "sk-ant-sandbox-replay-model-not-a-real-key" }
    : { apiKey };

  // The runner needs the simulator's URLs and the simulator needs the runner: tie them after both exist.
  const late: { runner?: ActionRunner } = {};
  const names = options.names ?? {
    owner: randomOwner(),
    repo: randomRepoName(),
    appSlug: randomAppSlug(),
  };
  const sim = await startGitHubSimulator({
    app: { slug: names.appSlug },
    port: options.port ?? 0,
    workDir: join(workDir, "github"),
    webhooks: { secret: WEBHOOK_SECRET, onDelivery: (delivery) => emit({ type: "webhook", delivery }) },
    calledWorkflows: calledWorkflows(),
    runner: (request) => {
      if (!late.runner) throw new Error("the runner is not ready");
      return late.runner.runner(request);
    },
    observe: (exchange) => emit({ type: "exchange", exchange }),
    // The repository's locus.yml calls the reusable Locus workflow, whose job asks for the tokens.
    jobWorkflowRef: (run) =>
      run.workflowPath === ".github/workflows/locus.yml"
        ? "locus-dev/locus/.github/workflows/locus.yml@refs/tags/v1"
        : undefined,
    // The sample project's own CI: `node --test` on every new pull request head.
    ci: { execute: nodeTestCi() },
  });
  const seeded = await sim.seed.repo(`${names.owner}/${names.repo}`, {
    private: options.public !== true,
    files: {
      ...SAMPLE_PROJECT,
      ...sampleConfig(options),
    },
    description: "A tiny string library (the Locus sandbox's sample project)",
    install: false,
  });
  seeded.collaborator(HUMAN, "write");

  // Each run trades its OIDC token with the app; the app's URL is known once it listens.
  const appUrl: { value?: string } = {};
  const runner = createActionRunner({
    bundle,
    workDir: join(workDir, "runs"),
    apiUrl: sim.apiUrl,
    graphqlUrl: sim.graphqlUrl,
    serverUrl: sim.url,
    model,
    exchange: {
      appUrl: () => {
        if (!appUrl.value) throw new Error("the app is not listening yet");
        return appUrl.value;
      },
      idTokenRequest: (runId) => sim.oidc.requestCredentials(runId),
    },
    ...(options.githubToken ? { token: options.githubToken } : {}),
    ...(options.runnerPath !== undefined ? { path: options.runnerPath } : {}),
    onStart: (run, inputs) => emit({ type: "run-start", run, inputs }),
    onLine: (run, line) => emit({ type: "run-line", run, line }),
    onFinish: (run, finished) => emit({ type: "run-end", run, finished }),
  });
  late.runner = runner;

  const appLog = pino(
    { level: "warn" },
    {
      write(line: string) {
        const entry = JSON.parse(line) as { level?: number; msg?: string };
        emit({
          type: "app-log",
          level: (entry.level ?? 40) >= 50 ? "error" : "warn",
          message: entry.msg ?? line,
        });
      },
    },
  );
  const app = await startAppOnSimulator(sim, {
    secret: WEBHOOK_SECRET,
    log: appLog,
    tokenExchange: { onExchange: (event) => emit({ type: "token-exchange", event }) },
  });
  appUrl.value = app.appUrl;
  const locus = app.locus;
  const settle = () => app.settle();

  return {
    sim,
    locus,
    owner: names.owner,
    repo: names.repo,
    gitDir: seeded.gitDir,
    workDir,
    webhookUrl: app.webhookUrl,
    replay,
    provider: options.acpAgent ? "acp" : "builtin",
    runner,
    as: (login) => new RestClient({ auth: sim.as(login), baseUrl: sim.apiUrl }),
    settle,
    async close(closeOptions = {}) {
      await settle().catch(() => undefined);
      await app.close();
      await sim.close();
      await replay?.close();
      if (!closeOptions.keepFiles) await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** The sample project's `.github/locus.yml`, when the world's options ask for one. */
function sampleConfig(options: WorldOptions): Record<string, string> {
  const lines = [
    ...(options.acpAgent
      ? ["agent:", "  provider: acp", "  acp:", `    command: ${JSON.stringify(options.acpAgent)}`]
      : []),
    ...(options.sandbox === "off" ? ["sandbox:", "  mode: off"] : []),
  ];
  return lines.length === 0 ? {} : { ".github/locus.yml": ["version: 3", ...lines, ""].join("\n") };
}
