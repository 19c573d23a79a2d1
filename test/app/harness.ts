/**
 * The real Locus app behind its real HTTP server, with GitHub played by the
 * simulator: webhooks arrive signed over loopback, and every call the app
 * makes is answered (and logged) by the simulator.
 */
import { Octokit } from "@octokit/core";
import { restEndpointMethods } from "@octokit/plugin-rest-endpoint-methods";
import { pino } from "pino";
import type { LocusServerOptions } from "../../app/http-server.ts";
import type { TokenExchangeConfig } from "../../app/token-exchange.ts";
import type { LocusApp } from "../../app/index.ts";
import {
  startGitHubSimulator,
  type GitHubSimulator,
  type Exchange,
  type RepoSeeder,
  type RunnerResult,
} from "../../sandbox/github-sim/index.ts";
import { startAppOnSimulator } from "../../sandbox/world/app-on-simulator.ts";
import { calledWorkflows, callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { owner, repo as name } from "./github-helpers.ts";

export const WEBHOOK_SECRET = "locus-test-webhook-secret-0123456789";

export interface AppHarness {
  readonly sim: GitHubSimulator;
  readonly locus: LocusApp;
  readonly repo: RepoSeeder;
  readonly webhookUrl: string;
  /** The app server's base URL (the token exchange's audience). */
  readonly appUrl: string;
  /** A REST client acting as `login`, like a person in GitHub's web UI. */
  as(login: string): InstanceType<typeof RestClient>;
  /** Waits until webhooks, runs and the app's work have all finished. */
  settle(): Promise<void>;
  /** Sets what dispatched workflow runs conclude with; "hold" keeps them running until cancelled. */
  runsConclude(conclusion: RunnerResult["conclusion"] | "hold"): void;
  /** Like settle(), but leaves held workflow runs running. */
  settleWebhooks(): Promise<void>;
  close(): Promise<void>;
}

const RestClient = Octokit.plugin(restEndpointMethods);

export async function startAppHarness(
  options: {
    files?: Record<string, string>;
    /** `.github/locus.yml` beside the default files (a README and the caller workflow). */
    config?: string;
    server?: Partial<Omit<LocusServerOptions, "probot" | "appFn">>;
    /** How the simulator waits out a latency fault (default: a real timer). */
    delay?: (ms: number) => Promise<void>;
    /** false: GitHub answers a dispatch 204, without the run; "rejected": 422 for `return_run_details` (older Enterprise Server). */
    dispatchRunDetails?: boolean | "rejected";
    tokenExchange?: Partial<TokenExchangeConfig>;
    /** Sees every exchange with the simulator, request bodies included. */
    observe?: (exchange: Exchange) => void;
    /** A public repository, where people without access can comment; default private. */
    public?: boolean;
  } = {},
): Promise<AppHarness> {
  let conclusion: RunnerResult["conclusion"] | "hold" = "success";
  const sim = await startGitHubSimulator({
    webhooks: { secret: WEBHOOK_SECRET },
    calledWorkflows: calledWorkflows(),
    ...(options.delay ? { delay: options.delay } : {}),
    ...(options.dispatchRunDetails === undefined ? {} : { dispatchRunDetails: options.dispatchRunDetails }),
    ...(options.observe ? { observe: options.observe } : {}),
    runner: (request) => {
      if (conclusion !== "hold") return { conclusion };
      return new Promise<RunnerResult>((resolve) => {
        request.signal.addEventListener("abort", () => resolve({ conclusion: "cancelled" }));
      });
    },
  });
  const app = await startAppOnSimulator(sim, {
    secret: WEBHOOK_SECRET,
    log: pino({ level: "silent" }),
    server: options.server,
    ...(options.tokenExchange ? { tokenExchange: options.tokenExchange } : {}),
  });
  const repo = await sim.seed.repo(`${owner}/${name}`, {
    files: options.files ?? {
      "README.md": "# demo\n",
      ...callerWorkflowFiles(),
      ...(options.config === undefined ? {} : { ".github/locus.yml": options.config }),
    },
    private: options.public !== true,
  });
  repo.collaborator("alice", "write").collaborator("eve", "read");

  return {
    sim,
    settleWebhooks: () => app.settle({ runs: false }),
    locus: app.locus,
    repo,
    webhookUrl: app.webhookUrl,
    appUrl: app.appUrl,
    as: (login) => new RestClient({ auth: sim.as(login), baseUrl: sim.apiUrl }),
    settle: () => app.settle(),
    runsConclude: (next) => {
      conclusion = next;
    },
    close: async () => {
      // Runs held on purpose never finish by themselves: settle the app's work without waiting for them.
      await app.settle({ runs: conclusion !== "hold" }).catch(() => undefined);
      await app.close();
      // The app is gone, so the teardown's own events go nowhere: cancelling a hundred held runs
      // would otherwise have the app list every run of the workflow once per cancellation.
      sim.webhooks.url = undefined;
      for (const held of sim.store.repos.values()) {
        for (const run of held.runs)
          if (run.status !== "completed") await sim.runs.complete(held, run.id, "cancelled");
      }
      await sim.close();
    },
  };
}
