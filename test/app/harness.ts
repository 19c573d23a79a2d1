/**
 * The real Locus app behind Probot's real HTTP server, with GitHub played by
 * the simulator: webhooks arrive signed over loopback, and every call the app
 * makes is answered (and logged) by the simulator.
 */
import { Octokit } from "@octokit/core";
import { restEndpointMethods } from "@octokit/plugin-rest-endpoint-methods";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Probot } from "probot";
import { createLocusServer, type LocusServerOptions } from "../../app/http-server.ts";
import { createLocusApp, type LocusApp } from "../../app/index.ts";
import { locusOctokit } from "../../app/octokit.ts";
import { runName, type Mode } from "../../lib/dispatch/dispatch-inputs.ts";
import type { Log } from "../../lib/github/index.ts";
import {
  startGitHubSimulator,
  type GitHubSimulator,
  type RepoSeeder,
  type RunnerResult,
} from "../../sandbox/github-sim/index.ts";

export const WEBHOOK_SECRET = "locus-test-webhook-secret-0123456789";

const quiet: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface AppHarness {
  readonly sim: GitHubSimulator;
  readonly locus: LocusApp;
  readonly repo: RepoSeeder;
  readonly webhookUrl: string;
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
    server?: Partial<Omit<LocusServerOptions, "probot" | "appFn">>;
  } = {},
): Promise<AppHarness> {
  let conclusion: RunnerResult["conclusion"] | "hold" = "success";
  const sim = await startGitHubSimulator({
    webhooks: { secret: WEBHOOK_SECRET },
    // The reusable workflow's run-name: `Locus <mode> #<target> (<delivery>)`.
    runName: ({ inputs }) => {
      const target = Number(inputs.milestone || inputs.pr || (inputs.issue ?? "").split(" ")[0]) || undefined;
      return runName(inputs.mode as Mode, target, inputs.delivery ?? "");
    },
    runner: (request) => {
      if (conclusion !== "hold") return { conclusion };
      return new Promise<RunnerResult>((resolve) => {
        request.signal.addEventListener("abort", () => resolve({ conclusion: "cancelled" }));
      });
    },
  });
  const locus = createLocusApp();
  const silent = pino({ level: "silent" });
  const probot = new Probot({
    appId: sim.app.id,
    privateKey: sim.appPrivateKey ?? "",
    secret: WEBHOOK_SECRET,
    baseUrl: sim.apiUrl,
    log: silent,
    Octokit: locusOctokit(quiet, { retryUnitMs: 0, minWriteIntervalMs: 0 }),
  });
  const server = await createLocusServer({ probot, appFn: locus.appFn, ...options.server });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
  sim.webhooks.url = webhookUrl;
  const repo = await sim.seed.repo("octo/demo", {
    files: options.files ?? { "README.md": "# demo\n", ".github/workflows/locus.yml": "name: Locus\n" },
  });
  repo.collaborator("alice", "write").collaborator("eve", "read");

  async function settle(): Promise<void> {
    for (let round = 0; round < 50; round++) {
      await sim.settle();
      await locus.work.drain();
      await sim.settle();
      if (
        locus.work.size === 0 &&
        sim.webhooks.deliveries.every((d) => d.status !== null || d.error !== null)
      )
        return;
    }
    throw new Error("the app and the simulator did not settle");
  }

  async function settleWebhooks(): Promise<void> {
    for (let round = 0; round < 50; round++) {
      await sim.webhooks.drain();
      await locus.work.drain();
      if (
        locus.work.size === 0 &&
        sim.webhooks.deliveries.every((d) => d.status !== null || d.error !== null)
      )
        return;
    }
    throw new Error("webhooks did not settle");
  }

  return {
    sim,
    settleWebhooks,
    locus,
    repo,
    webhookUrl,
    as: (login) => new RestClient({ auth: sim.as(login), baseUrl: sim.apiUrl }),
    settle,
    runsConclude: (next) => {
      conclusion = next;
    },
    close: async () => {
      await settle().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sim.close();
    },
  };
}
