import { attachFile } from "./attachments.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAppKeys, mintUserToken } from "./app-auth.ts";
import { loadAppManifest } from "./app-manifest.ts";
import { createAppManifestFlow } from "./app-manifest-flow.ts";
import type { SimCore, SimUrls } from "./core.ts";
import { createCiController, mayMoveHeads } from "./ci-runs.ts";
import type { CiController, CiOptions } from "./ci-runs.ts";
import { startLogHost } from "./ci-logs.ts";
import { createFaultRegistry } from "./faults.ts";
import type { FaultRegistry } from "./faults.ts";
import { createRequestHandler } from "./http-handler.ts";
import { createArtifactService, type ArtifactService } from "./artifact-service.ts";
import { forgetRepositoriesUnder } from "./git-cache.ts";
import type { Exchange, RequestLogEntry } from "./http-handler.ts";
import type { AppInfo, Store } from "./model.ts";
import { graphqlBudget } from "./graphql-budget.ts";
import { createRateLimiter } from "./rate-limit.ts";
import type { RateLimitOptions } from "./rate-limit.ts";
import { envelope } from "./route-helpers.ts";
import { createOidcIssuer, type OidcIssuer } from "./oidc-issuer.ts";
import { createRunController } from "./runs.ts";
import type { RunController, WorkflowRunner } from "./runs.ts";
import { createSeeder } from "./seed.ts";
import type { Seeder } from "./seed.ts";
import { createStore, ensureUser } from "./store.ts";
import { randomAppSlug } from "./random-names.ts";
import { createWebhookQueue } from "./webhooks.ts";
import type { WebhookDelivery, WebhookQueue } from "./webhooks.ts";
import { installationFor } from "./store.ts";

export interface GitHubSimulatorOptions {
  // 0 (default) picks a free port on 127.0.0.1.
  port?: number;
  app?: {
    id?: number;
    slug?: string;
    name?: string;
    owner?: string;
    // Without it the simulator generates a key pair and exposes the private key as `appPrivateKey`.
    publicKeyPem?: string;
    // The GitHub App manifest whose permissions and events installations get (default: the project's app.yml).
    manifestPath?: string;
  };
  // Extra personal access tokens accepted as `Authorization: token <pat>`: token → login.
  personalAccessTokens?: Record<string, string>;
  webhooks?: { url?: string; secret?: string; onDelivery?: (delivery: WebhookDelivery) => void };
  runner?: WorkflowRunner;
  // The repository's own CI: run on every new open pull request head (see ci-runs.ts).
  ci?: CiOptions;
  // The display title of a dispatched run, as the workflow's `run-name` would give it (default: the workflow's name).
  runName?: (run: { workflowPath: string; inputs: Record<string, string> }) => string | undefined;
  // false plays a GitHub that ignores the dispatch API's run details (github.com before 2026-02-19): a
  // dispatch answers 204 whatever `return_run_details` says; "rejected" plays a GitHub Enterprise Server
  // whose API lacks the key and refuses it with 422 (default true).
  dispatchRunDetails?: boolean | "rejected";
  // Reusable workflows a dispatched workflow may call, by `uses` without `@ref` (owner/repo/.github/workflows/x.yml):
  // their `concurrency` applies to the run, as on GitHub.
  calledWorkflows?: Record<string, string>;
  rateLimit?: RateLimitOptions;
  now?: () => Date;
  // Used by latency faults; tests inject an instant one to avoid real sleeps.
  delay?: (ms: number) => Promise<void>;
  // Directory for bare repositories the simulator creates (default: a fresh temp dir, removed on close).
  workDir?: string;
  // Sees every HTTP exchange after the response is written (used by the OpenAPI conformance checks).
  observe?: (exchange: Exchange) => void;
  // The reusable workflow a run's job executes, for the OIDC `job_workflow_ref` claim (default: the run's own file).
  jobWorkflowRef?: (run: { owner: string; repo: string; workflowPath: string }) => string | undefined;
}

export interface GitHubSimulator {
  url: string;
  apiUrl: string;
  graphqlUrl: string;
  store: Store;
  app: AppInfo;
  // The app's bot user (`<slug>[bot]`), which `GET /users/{login}` serves with this id.
  bot: { login: string; id: number };
  appPrivateKey: string | null;
  webhooks: WebhookQueue;
  faults: FaultRegistry;
  requestLog: RequestLogEntry[];
  runs: RunController;
  // GitHub Actions' OIDC issuer: ID tokens for running jobs, and the keys to verify them.
  oidc: OidcIssuer;
  // CI runs, check suites and their webhooks.
  ci: CiController;
  // The Actions artifact service (`ACTIONS_RESULTS_URL` is the simulator's url) and what was uploaded.
  artifacts: ArtifactService;
  seed: Seeder;
  // A token acting as `login` (created if unknown), for tests that play a human.
  as: (login: string) => string;
  // Stores a file attached to an issue of `fullName` and answers its URL (attachments.ts).
  attach: (fullName: string, bytes: Uint8Array, contentType?: string) => string;
  // Waits for runner executions and webhook deliveries in flight.
  settle: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startGitHubSimulator(options: GitHubSimulatorOptions = {}): Promise<GitHubSimulator> {
  // Every world names its app differently, as every operator does: nothing may assume the slug.
  const slug = options.app?.slug ?? randomAppSlug();
  const app: AppInfo = {
    id: options.app?.id ?? 1,
    slug,
    name: options.app?.name ?? slug,
    ownerLogin: options.app?.owner ?? "locus-dev",
    botLogin: `${slug}[bot]`,
    ...loadAppManifest(options.app?.manifestPath),
  };
  const now = options.now ?? (() => new Date());
  const store = createStore({ app, now });
  const keys = loadAppKeys(options.app?.publicKeyPem);
  for (const [token, login] of Object.entries(options.personalAccessTokens ?? {})) {
    ensureUser(store, login);
    store.tokens.set(token, {
      token,
      kind: "user",
      login,
      installationId: null,
      expiresAt: null,
      permissions: null,
    });
  }
  const ownWorkDir = options.workDir === undefined;
  const workDir = options.workDir ?? (await mkdtemp(join(tmpdir(), "github-sim-")));
  const webhooks = createWebhookQueue({ ...options.webhooks, now });
  const faults = createFaultRegistry();
  const limiter = createRateLimiter(options.rateLimit ?? {}, now, (key, resource) =>
    resource === "graphql" ? graphqlBudget(store, key, options.rateLimit?.graphql) : undefined,
  );
  const requestLog: RequestLogEntry[] = [];
  const urls: SimUrls = { web: "", api: "" };
  const logHost = await startLogHost(now);
  const core: SimCore = {
    store,
    urls,
    webhooks,
    emit(event, payload, emitOptions) {
      const installation = emitOptions.repo ? installationFor(store, emitOptions.repo.owner) : undefined;
      webhooks.enqueue(
        event,
        envelope({ core }, emitOptions.repo, emitOptions.sender, payload),
        installation?.id ?? app.id,
      );
      if (options.ci && mayMoveHeads(event, payload)) void ci.scan();
    },
    startRun: (repo, runId) => runs.start(repo, runId),
    cancelRun: (repo, runId, by) => runs.cancel(repo, runId, by),
    rateLimit: (key, resource) => limiter.peek(key, resource),
    runName: options.runName,
    calledWorkflows: options.calledWorkflows ?? {},
    dispatchRunDetails: options.dispatchRunDetails ?? true,
    ciLogs: logHost,
  };
  const runs = createRunController(() => core, options.runner);
  const ci = createCiController(() => core, options.ci);
  const oidc = await createOidcIssuer({
    store,
    webUrl: () => urls.web,
    ...(options.jobWorkflowRef ? { jobWorkflowRef: options.jobWorkflowRef } : {}),
  });
  const api = createRequestHandler({
    core,
    keys,
    limiter,
    faults,
    delay: options.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    log: requestLog,
    observe: options.observe,
  });
  const artifacts = createArtifactService(() => urls.web);
  const manifests = createAppManifestFlow({
    store,
    webhooks,
    privateKeyPem: keys.privateKeyPem,
    webUrl: () => urls.web,
  });
  const server = createServer((request, response) => {
    if (
      !oidc.handle(request, response) &&
      !manifests.handle(request, response) &&
      !artifacts.handle(request, response)
    )
      api(request, response);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  urls.web = `http://127.0.0.1:${port}`;
  urls.api = `${urls.web}/api/v3`;
  return {
    url: urls.web,
    apiUrl: urls.api,
    graphqlUrl: `${urls.web}/api/graphql`,
    store,
    app,
    bot: { login: app.botLogin, id: ensureUser(store, app.botLogin, "Bot").id },
    appPrivateKey: keys.privateKeyPem,
    webhooks,
    faults,
    requestLog,
    runs,
    oidc,
    ci,
    artifacts,
    seed: createSeeder(core, workDir),
    attach: (fullName, bytes, contentType) => attachFile(store, urls.web, fullName, bytes, contentType),
    as(login) {
      ensureUser(store, login);
      return mintUserToken(store, login).token;
    },
    async settle() {
      await runs.settle();
      await ci.settle();
      await webhooks.drain();
      await runs.settle();
      await ci.settle();
    },
    async close() {
      await runs.settle();
      await ci.settle();
      await webhooks.drain();
      await logHost.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      forgetRepositoriesUnder(workDir);
      if (ownWorkDir) await rm(workDir, { recursive: true, force: true });
    },
  };
}
