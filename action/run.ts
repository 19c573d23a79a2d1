/**
 * The Action: inputs and environment in, one mode run, outputs and the job
 * summary out. A task that failed and was recorded on its issue is a normal
 * outcome (exit 0); only Locus's own faults — bad inputs, an unreadable
 * config, an error outside a task — fail the step.
 */
import { describeCalls } from "../lib/github/call-summary.ts";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as core from "@actions/core";
import { providerNotes, unreachedHooksWarning } from "../lib/agent/provider-notes.ts";
import { scrubEnvironment } from "../lib/sandbox/environment.ts";
import type { ActionContext, ActionLog } from "../lib/task/context.ts";
import { renderJobSummary } from "../lib/task/job-summary.ts";
import { refuseRequester } from "../lib/trust/requester.ts";
import { commitIdentity } from "../lib/git/commit-identity.ts";
import { selfLogins } from "../lib/trust/self-logins.ts";
import { reportPermissionRefusal } from "../lib/task/permission-refusal-report.ts";
import { catchRunFaults } from "../lib/task/run-fault.ts";
import { runMode } from "../lib/action/run-mode.ts";
import { createSecretMask } from "../lib/secrets/secret-mask.ts";
import { overallStatus, type ModeResult } from "../lib/task/task-report.ts";
import { loadConfig } from "../lib/config/index.ts";
import { DEFAULT_ACP_ENV } from "../lib/config/schema.ts";
import { createGitClient } from "../lib/git/git-client.ts";
import { readCheckoutFacts } from "../lib/git/checkout-facts.ts";
import { createRunSandbox } from "../lib/agent/run-sandbox.ts";
import { defaultAllowedHosts } from "../lib/sandbox/host-patterns.ts";
import { planSetup } from "../lib/setup/setup-plan.ts";
import { createTaskSetup } from "../lib/setup/task-setup.ts";
import { usableSetupCache } from "../lib/setup/setup-cache.ts";
import { credentialValues } from "../lib/secrets/secrets-in-diff.ts";
import type { Sandbox } from "../lib/sandbox/sandbox.ts";
import { assertRepoPath } from "../lib/git/ref-names.ts";
import { createActionOctokit, createGateway } from "../lib/github/index.ts";
import { runnerIdToken, takeIdTokenRequest } from "../lib/token-exchange/id-token.ts";
import { logLine } from "../lib/task/log-line.ts";
import { createAgentRunner } from "./create-agent-runner.ts";
import { startSessionRecord } from "./session-record.ts";
import { actionCredentials } from "./credentials.ts";
import { readEnvironment } from "./environment.ts";
import { registryCredentialsFor } from "../lib/config/run-registry-credentials.ts";
import { modeRequest, parseInputs } from "./inputs.ts";
import { modelFromCommand } from "../lib/commands/model-option.ts";

const log: ActionLog = {
  debug: (msg) => core.debug(msg),
  // `core.info` prints as is (the others escape): lines carrying repository data or agent text must not start a command.
  info: (msg) => core.info(logLine(msg)),
  warn: (msg) => core.warning(msg),
  error: (msg) => core.error(msg),
  group: (name, fn) => core.group(name, fn),
};

// A loopback API is a local simulator: GitHub's one-write-a-second guidance does not apply.
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
}

async function readConfigText(workspace: string, path: string): Promise<string | null> {
  try {
    return await readFile(join(workspace, assertRepoPath(path)), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function setOutputs(result: ModeResult): void {
  const delivered = result.tasks.find((task) => task.pr);
  const sum = (pick: (task: ModeResult["tasks"][number]) => number) =>
    result.tasks.reduce((total, task) => total + pick(task), 0);
  core.setOutput("status", overallStatus(result));
  core.setOutput("pr-number", delivered?.pr ? String(delivered.pr.number) : "");
  core.setOutput("pr-url", delivered?.pr?.url ?? "");
  core.setOutput(
    "input-tokens",
    String(sum((task) => task.usage.inputTokens + task.usage.cacheReadTokens + task.usage.cacheWriteTokens)),
  );
  core.setOutput("output-tokens", String(sum((task) => task.usage.outputTokens)));
  core.setOutput("cost-usd", sum((task) => task.costUsd).toFixed(4));
}

export async function run(): Promise<void> {
  // First of all: the OIDC request token leaves the environment and lives only in the exchange client.
  const idTokenRequest = takeIdTokenRequest(process.env);
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    log.warn(`Received ${signal}: stopping the agent and saving its work.`);
    abort.abort(new Error(`cancelled (${signal})`));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  let mask = createSecretMask([]);
  // An error nothing caught (a socket's callback, a stray rejection) stops the run through its
  // tasks' failure path instead of ending the process with the issue left in progress.
  const faults = catchRunFaults(process, abort, (fault) => log.error(mask(fault.message)));
  let sandbox: Sandbox | undefined;
  // Started before the token exchange's answer comes (see below); closed even if the run stops first.
  let sandboxStarting: Promise<Sandbox> | undefined;
  // Once there is a gateway: tells the issue or PR of a run GitHub stopped by refusing a permission.
  let reportRefusal: ((error: unknown) => Promise<void>) | undefined;
  try {
    const inputs = parseInputs((name) => core.getInput(name));
    core.setSecret(inputs["github-token"]);
    if (inputs["anthropic-api-key"]) core.setSecret(inputs["anthropic-api-key"]);
    const secrets: string[] = [inputs["github-token"], inputs["anthropic-api-key"]];
    mask = createSecretMask(secrets);
    const request = modeRequest(inputs);
    const env = readEnvironment(process.env);

    const loaded = loadConfig(await readConfigText(env.workspace, inputs["config-path"]));
    if (!loaded.ok) {
      throw new Error(
        `${inputs["config-path"]} is invalid: ${loaded.errors.map((e) => e.message).join("; ")}`,
      );
    }
    for (const warning of loaded.warnings) log.warn(`${inputs["config-path"]}: ${warning}`);
    const config = loaded.config;
    // Private registries' secrets stay in this process (the egress proxy) and out of every log and text.
    const registryCredentials = registryCredentialsFor(config, inputs["registry-credentials"]);
    for (const value of registryCredentials.secrets) core.setSecret(value);
    secrets.push(...registryCredentials.secrets);
    mask = createSecretMask(secrets);
    // The input, when given, overrides the config file's choice.
    const provider = inputs.provider ?? config.agent.provider;
    log.info(
      `Agent provider: ${provider}${inputs.provider ? " (provider input)" : ` (${inputs["config-path"]})`}`,
    );
    for (const note of providerNotes(provider)) log.info(`Note: ${note}`);
    // A warning is also an annotation on the run's summary page, so it is seen once per run.
    const unreached = unreachedHooksWarning(provider, config.agent.hooks ?? []);
    if (unreached) log.warn(unreached);

    // Exchanged tokens are masked like the input token: in the runner's log and in what Locus publishes.
    const credentials = actionCredentials({
      githubToken: inputs["github-token"],
      appUrl: inputs["app-url"],
      appSlug: inputs["app-slug"],
      log,
      idTokenRequest,
      onToken: (token) => {
        core.setSecret(token);
        secrets.push(token);
        mask = createSecretMask(secrets);
      },
    });
    // The sandbox starts (bubblewrap's probe, the egress proxy) while the token exchange and the
    // requester check wait on GitHub and the app; it is awaited only after both, so their refusals
    // still come first, and a run that needs a sandbox and cannot have one stops before any model call.
    sandboxStarting = createRunSandbox({
      mode: config.sandbox.mode,
      allow: config.sandbox.network.allow,
      credentials: registryCredentials.credentials,
      workspace: env.workspace,
      provider,
      env: process.env,
      acpEnv: config.agent.acp?.env ?? DEFAULT_ACP_ENV,
    });
    // Awaited below or in `finally`: a failure meanwhile is not an unhandled rejection.
    sandboxStarting.catch(() => undefined);
    const gitEnv = scrubEnvironment(process.env);
    // Every worktree git command runs in the sandbox; the host runs git only in Locus's own repository.
    // Both clients of the checkout mount the same directories, so their commands share one sandbox session.
    const runDirs = {
      repositoryPath: join(env.worktreeRoot, "locus-repository"),
      worktreesDir: join(env.worktreeRoot, "locus-worktrees"),
    };
    // Read before any agent runs: later pushes go to this URL, whatever the config says by then. Read
    // (in the sandbox, which starts that session) while the token exchange waits on the app.
    const checkoutRead = sandboxStarting.then((started) =>
      readCheckoutFacts({ cwd: env.workspace, env: gitEnv, sandbox: started, ...runDirs }),
    );
    checkoutRead.catch(() => undefined);
    const octokit = createActionOctokit({
      token: credentials.api,
      baseUrl: env.apiUrl,
      log,
      ...(isLoopback(env.apiUrl) ? { minWriteIntervalMs: 0, retryUnitMs: 0 } : {}),
    });
    const userId = async (login: string) =>
      Number((await octokit.request("GET /users/{username}", { username: login })).data.id);
    const identity = await credentials.identity(userId);
    log.info(`Locus acts as ${identity.login} in this run.`);
    const gateway = createGateway({
      octokit,
      repo: { owner: env.owner, repo: env.repo },
      log,
      ownLogins: selfLogins({ identity }),
    });
    reportRefusal = (error) =>
      reportPermissionRefusal({ gateway, log, mask: (text) => mask(text) }, request, error);
    const refusal = await refuseRequester(gateway, env, selfLogins({ identity }), config);
    if (refusal) throw new Error(`Refused: ${refusal}`);

    // Before any model call: a run that needs a sandbox and cannot have one stops here.
    sandbox = await sandboxStarting;
    if (sandbox.kind === "off") log.warn("sandbox.mode is off: the agent's commands run without a sandbox.");
    // Setup runs in a sandbox of its own: the agent's egress plus the setup's hosts, closed before the agent starts.
    const topLevel = await readdir(env.workspace);
    const setupCache = usableSetupCache(inputs["setup-cache"], env.workspace);
    if (setupCache.refused) log.warn(setupCache.refused);
    if (setupCache.dir) await mkdir(setupCache.dir, { recursive: true });
    const setup = createTaskSetup({
      plan: planSetup(config.setup, topLevel),
      openSandbox: (extraAllow) =>
        createRunSandbox({
          mode: config.sandbox.mode,
          allow: [...(config.sandbox.network.allow ?? defaultAllowedHosts(topLevel)), ...extraAllow],
          credentials: registryCredentials.credentials,
          workspace: env.workspace,
          provider,
          env: process.env,
          acpEnv: config.agent.acp?.env ?? DEFAULT_ACP_ENV,
        }),
      env: scrubEnvironment(process.env),
      ...(setupCache.dir ? { cacheDir: setupCache.dir } : {}),
    });

    const author = commitIdentity(identity, config.commit);
    const { remoteUrl, head: trustedCommit } = await checkoutRead;
    const git = createGitClient({
      cwd: env.workspace,
      identity: author,
      env: gitEnv,
      remoteUrl,
      sandbox,
      ...runDirs,
      // The inputs' and exchanged tokens, and every credential variable's value (a CLI provider's key).
      secrets: () => [...secrets, ...credentialValues(process.env)],
      auth: credentials.gitAuth(remoteUrl),
      // `commit.via: api`: GitHub makes (and signs) the commits; git still checks them first.
      ...(config.commit.via === "api" ? { commitWrites: gateway } : {}),
      onConfigReverted: (paths) =>
        log.warn(`Git files changed during the run were restored before Locus ran git: ${paths.join(", ")}`),
    });

    // `/locus run model=<id>` and `/locus iterate model=<id>` reach the Action inside `command`.
    const chosen = modelFromCommand(request.mode, inputs.command);
    if (chosen.model !== undefined) log.info(`Model chosen by the command: ${chosen.model}`);
    // The model host's credentials (agent.modelHost), bought with the run's OIDC token on first use; the
    // OIDC token and the credentials are masked like every token, in the log and in what Locus publishes.
    const keepSecret = (secret: string) => {
      core.setSecret(secret);
      secrets.push(secret);
      mask = createSecretMask(secrets);
    };
    const cloudIdToken = runnerIdToken(idTokenRequest);
    const connectCloud = async () => {
      const { connectModelHost } = await import("../lib/model-host/connect-model-host.ts");
      const connection = await connectModelHost(config.agent, {
        idToken: async (audience) => {
          const token = await cloudIdToken(audience);
          keepSecret(token);
          return token;
        },
        sessionName: `locus-${env.repo}-${env.runId}`,
      });
      for (const secret of connection?.secrets ?? []) keepSecret(secret);
      return connection;
    };
    const sessionRecord = startSessionRecord({
      runner: createAgentRunner(
        provider,
        config,
        process.env,
        inputs["anthropic-api-key"],
        sandbox,
        connectCloud,
      ),
      folder: env.worktreeRoot,
      runId: env.runId,
      runUrl: env.runUrl,
      mask: (text) => mask(text),
      env: process.env,
    });
    const ctx: ActionContext = {
      gateway,
      git,
      runner: sessionRecord.runner,
      sessionRecord,
      clock: { now: () => new Date() },
      log,
      config,
      identity,
      run: {
        id: env.runId,
        ...(env.runUrl ? { url: env.runUrl } : {}),
        worktreeRoot: env.worktreeRoot,
        actor: env.actor,
        repositoryUrl: env.repositoryUrl,
        ...(trustedCommit ? { trustedCommit } : {}),
        ...(sandbox.kind === "off" ? { unsandboxed: true } : {}),
      },
      model: chosen.model ?? (inputs.model || config.agent.model),
      ...(chosen.model !== undefined ? { modelChosen: true } : {}),
      maxTurns: inputs["max-turns"] ?? config.agent.maxTurns,
      signal: abort.signal,
      mask: (text) => mask(text),
      delivery: inputs.delivery,
      command: chosen.command,
      setup,
      userId,
    };
    const result = await runMode(ctx, request);
    log.info(describeCalls(gateway.counter.snapshot()));
    setOutputs(result);
    // The agents have ended: this process (never an agent) uploads what the record holds still.
    const recordSection = await sessionRecord.finish(request.mode);
    if (process.env["GITHUB_STEP_SUMMARY"]) {
      const report = { kind: sandbox.kind, refused: sandbox.refused() };
      // Hooks that never ran are said in the summary too, where a reader looks for what happened.
      const summary = renderJobSummary(request.mode, result, report, env.runUrl, unreached);
      await core.summary.addRaw(mask(recordSection ? `${summary}\n\n${recordSection}` : summary)).write();
    }
    const failed = result.tasks.filter((task) => task.fault);
    if (failed.length > 0) {
      core.setFailed(
        mask(`Locus failed on ${failed.map((task) => `#${task.issue}: ${task.reason}`).join("; ")}`),
      );
    } else if (faults.caught()) {
      core.setFailed(mask(faults.caught()?.message ?? ""));
    }
  } catch (error) {
    await reportRefusal?.(error);
    core.setFailed(mask(error instanceof Error ? error.message : String(error)));
  } finally {
    await (sandbox ?? (await sandboxStarting?.catch(() => undefined)))?.close();
    faults.stop();
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
}
