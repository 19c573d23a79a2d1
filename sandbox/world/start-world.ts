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
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Probot } from "probot";
import { createLocusServer } from "../../app/http-server.ts";
import { createLocusApp, type LocusApp } from "../../app/index.ts";
import { locusOctokit } from "../../app/octokit.ts";
import { runName, type Mode } from "../../lib/dispatch/dispatch-inputs.ts";
import type { Log } from "../../lib/github/index.ts";
import { buildAction } from "../../scripts/build.ts";
import { mintInstallationToken } from "../github-sim/app-auth.ts";
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
import { SAMPLE_PROJECT } from "./sample-project.ts";

export const OWNER = "acme";
export const REPO = "strkit";
export const HUMAN = "alice";

const WEBHOOK_SECRET = "sandbox-webhook-secret-0123456789abcdef";

export type WorldEvent =
  | { readonly type: "webhook"; readonly delivery: WebhookDelivery }
  | { readonly type: "exchange"; readonly exchange: Exchange }
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
  readonly runner: ActionRunner;
  /** A REST client acting as `login`, like a person in GitHub's web UI. */
  as(login: string): RestClient;
  /** Waits until webhooks, workflow runs and the app's work have all finished. */
  settle(): Promise<void>;
  /** Stops everything; `keepFiles` leaves the bare repository and the runs' workspaces on disk. */
  close(options?: { keepFiles?: boolean }): Promise<void>;
}

const quiet: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const emit = options.onEvent ?? (() => undefined);
  const workDir = await mkdtemp(join(tmpdir(), "locus-sandbox-"));
  const bundle = join(workDir, "action.js");
  const apiKey = options.anthropicApiKey ?? process.env["ANTHROPIC_API_KEY"] ?? "";
  const [, replay] = await Promise.all([
    buildAction(bundle),
    apiKey ? Promise.resolve(undefined) : startReplayModel(options.transcripts ?? DEMO_TRANSCRIPTS),
  ]);
  const model: ModelEndpoint = replay
    ? { baseUrl: replay.url, apiKey: "sk-ant-sandbox-replay-model-not-a-real-key" }
    : { apiKey };

  // The runner needs the simulator's URLs and the simulator needs the runner: tie them after both exist.
  const late: { runner?: ActionRunner } = {};
  const sim = await startGitHubSimulator({
    port: options.port ?? 0,
    workDir: join(workDir, "github"),
    webhooks: { secret: WEBHOOK_SECRET, onDelivery: (delivery) => emit({ type: "webhook", delivery }) },
    // The reusable workflow's run-name, evaluated at dispatch like GitHub does.
    runName: ({ workflowPath, inputs }) => {
      if (workflowPath.endsWith("/locus-stale.yml")) return undefined;
      const target =
        Number(inputs["milestone"] || inputs["pr"] || (inputs["issue"] ?? "").split(" ")[0]) || undefined;
      return runName(inputs["mode"] as Mode, target, inputs["delivery"] ?? "");
    },
    runner: (request) => {
      if (!late.runner) throw new Error("the runner is not ready");
      return late.runner.runner(request);
    },
    observe: (exchange) => emit({ type: "exchange", exchange }),
  });
  const seeded = await sim.seed.repo(`${OWNER}/${REPO}`, {
    files: { ...SAMPLE_PROJECT },
    description: "A tiny string library (the Locus sandbox's sample project)",
    install: false,
  });
  seeded.collaborator(HUMAN, "write");

  const runner = createActionRunner({
    bundle,
    workDir: join(workDir, "runs"),
    apiUrl: sim.apiUrl,
    graphqlUrl: sim.graphqlUrl,
    serverUrl: sim.url,
    model,
    token: () => {
      const installation = [...sim.store.installations.values()].find(
        (candidate) => candidate.account === OWNER,
      );
      if (!installation) throw new Error(`the app is not installed on ${OWNER}`);
      return mintInstallationToken(sim.store, installation.id).token;
    },
    onStart: (run, inputs) => emit({ type: "run-start", run, inputs }),
    onLine: (run, line) => emit({ type: "run-line", run, line }),
    onFinish: (run, finished) => emit({ type: "run-end", run, finished }),
  });
  late.runner = runner;

  const locus = createLocusApp();
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
  // The same HTTP front as `npm start`: body cap, timeouts, Probot's signature middleware.
  const probot = new Probot({
    appId: sim.app.id,
    privateKey: sim.appPrivateKey ?? "",
    secret: WEBHOOK_SECRET,
    baseUrl: sim.apiUrl,
    log: appLog,
    Octokit: locusOctokit(quiet, { retryUnitMs: 0, minWriteIntervalMs: 0 }),
  });
  const server = await createLocusServer({ probot, appFn: locus.appFn });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
  sim.webhooks.url = webhookUrl;

  async function settle(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      await sim.settle();
      await locus.work.drain();
      await sim.settle();
      const delivered = sim.webhooks.deliveries.every((d) => d.status !== null || d.error !== null);
      if (locus.work.size === 0 && delivered) return;
    }
    throw new Error("the app and the simulator did not settle");
  }

  return {
    sim,
    locus,
    owner: OWNER,
    repo: REPO,
    gitDir: seeded.gitDir,
    workDir,
    webhookUrl,
    replay,
    runner,
    as: (login) => new RestClient({ auth: sim.as(login), baseUrl: sim.apiUrl }),
    settle,
    async close(closeOptions = {}) {
      await settle().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sim.close();
      await replay?.close();
      if (!closeOptions.keepFiles) await rm(workDir, { recursive: true, force: true });
    },
  };
}
