/**
 * The sandbox's GitHub Actions runner: each dispatched workflow run becomes a
 * child process of the bundled Action with the Actions environment, in a
 * fresh clone of the repository over the simulator's smart HTTP (the token
 * goes to the clone command alone, never to .git/config, like
 * `persist-credentials: false`), so the Action's pushes meet GitHub's push
 * rules; with an empty HOME. Cancelling sends SIGINT then SIGTERM 7.5 s
 * later, as GitHub does.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { pushAuthFor } from "../../lib/git/push-auth.ts";
import type { RunnerRequest, RunnerResult, WorkflowRunner } from "../github-sim/index.ts";
import { NODE_COMPILE_CACHE_ENV } from "./node-compile-cache.ts";

const exec = promisify(execFile);

const CANCEL_GRACE_MS = 7_500;

export interface ModelEndpoint {
  /** ANTHROPIC_BASE_URL for the run; absent for the real API. */
  readonly baseUrl?: string;
  readonly apiKey: string;
  readonly model?: string;
}

export interface ActionRunnerOptions {
  readonly bundle: string;
  readonly workDir: string;
  readonly apiUrl: string;
  readonly graphqlUrl: string;
  readonly serverUrl: string;
  readonly model: ModelEndpoint;
  /**
   * The job's `github-token` input; default: the run's own GITHUB_TOKEN, as the reusable workflow
   * passes `github.token` (the simulator mints it with the workflow's `permissions:`).
   */
  readonly token?: () => string;
  /** The runner's PATH (default: this process's). */
  readonly path?: string;
  /**
   * The Locus app's token exchange: the run gets `app-url` and the runner's OIDC request
   * credentials (ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN), as a job with `id-token: write` does.
   */
  readonly exchange?: {
    readonly appUrl: () => string;
    readonly idTokenRequest: (runId: number) => { url: string; token: string };
  };
  /**
   * The Action step's inputs as the repository's workflow files give them (workflow-inputs.ts), in place of
   * the runner's own `app-url`, `github-token` and `anthropic-api-key`.
   */
  readonly stepInputs?: (run: RunnerRequest) => Promise<Record<string, string>>;
  readonly onStart?: (run: RunnerRequest, inputs: Record<string, string>) => void;
  readonly onLine?: (run: RunnerRequest, line: string) => void;
  readonly onFinish?: (run: RunnerRequest, finished: FinishedRun) => void;
}

export interface FinishedRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly outputs: Record<string, string>;
  readonly workspace: string;
  readonly conclusion: RunnerResult["conclusion"];
  /** The step's job summary as GitHub shows it: null when it was over 1 MiB, which GitHub drops whole. */
  readonly summary: string | null;
}

// https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/workflow-commands-for-github-actions#step-isolation-and-limits
const MAX_STEP_SUMMARY_BYTES = 1024 * 1024;

export interface ActionRunner {
  readonly runner: WorkflowRunner;
  /** Kills the runs matching `which` at once (SIGKILL: a lost runner, nothing saved); answers how many. */
  crash(which: (inputs: Record<string, string>) => boolean): number;
  readonly finished: readonly FinishedRun[];
}

/** The inputs a workflow file gives the Action: the stale sweep has none of its own. */
function actionInputs(request: RunnerRequest): Record<string, string> {
  if (request.workflowPath.endsWith("/locus-stale.yml")) return { mode: "stale" };
  return request.inputs;
}

export function createActionRunner(options: ActionRunnerOptions): ActionRunner {
  const active = new Map<number, { child: ChildProcess; inputs: Record<string, string> }>();
  const finished: FinishedRun[] = [];

  async function execute(request: RunnerRequest): Promise<RunnerResult> {
    const inputs = actionInputs(request);
    const root = join(options.workDir, `run-${request.runId}`);
    const workspace = join(root, "workspace");
    const temp = join(root, "temp");
    const home = join(root, "home");
    await mkdir(temp, { recursive: true });
    await mkdir(home, { recursive: true });
    const token = options.token?.() ?? request.githubToken;
    // actions/checkout clones with the job's own GITHUB_TOKEN, whatever the `github-token` input is.
    const checkoutToken = request.githubToken;
    const remote = `${options.serverUrl}/${request.owner}/${request.repo}.git`;
    await exec("git", ["clone", "--quiet", "--branch", request.ref, remote, workspace], {
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: home,
        GIT_TERMINAL_PROMPT: "0",
        ...pushAuthFor(remote, checkoutToken).env,
      },
    });
    const outputFile = join(root, "output");
    const summaryFile = join(root, "summary.md");
    await writeFile(outputFile, "");
    await writeFile(summaryFile, "");

    const all: Record<string, string> = {
      mode: "",
      issue: "",
      pr: "",
      milestone: "",
      command: "",
      delivery: "",
      "github-token": token,
      "app-url": options.exchange?.appUrl() ?? "",
      "anthropic-api-key": options.model.apiKey,
      model: options.model.model ?? "",
      // Empty, as action.yml's default: the repository's config chooses the provider.
      provider: "",
      "max-turns": "",
      "config-path": ".github/locus.yml",
      ...(await options.stepInputs?.(request)),
      ...inputs,
    };
    const env: Record<string, string> = {
      PATH: options.path ?? process.env["PATH"] ?? "",
      ...NODE_COMPILE_CACHE_ENV,
      HOME: home,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: `${request.owner}/${request.repo}`,
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: options.apiUrl,
      GITHUB_GRAPHQL_URL: options.graphqlUrl,
      GITHUB_SERVER_URL: options.serverUrl,
      GITHUB_RUN_ID: String(request.runId),
      GITHUB_ACTOR: request.actor,
      GITHUB_TRIGGERING_ACTOR: request.actor,
      GITHUB_REF: `refs/heads/${request.ref}`,
      GITHUB_SHA: request.headSha,
      GITHUB_EVENT_NAME: "workflow_dispatch",
      RUNNER_TEMP: temp,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      ...(options.model.baseUrl ? { ANTHROPIC_BASE_URL: options.model.baseUrl } : {}),
    };
    if (options.exchange) {
      const oidc = options.exchange.idTokenRequest(request.runId);
      env["ACTIONS_ID_TOKEN_REQUEST_URL"] = oidc.url;
      env["ACTIONS_ID_TOKEN_REQUEST_TOKEN"] = oidc.token;
    }
    for (const [name, value] of Object.entries(all)) env[`INPUT_${name.toUpperCase()}`] = value;

    options.onStart?.(request, inputs);
    const child = spawn(process.execPath, [options.bundle], { cwd: workspace, env, stdio: "pipe" });
    active.set(request.runId, { child, inputs });
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => options.onLine?.(request, line));
    child.stderr.resume();

    let graceTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill("SIGINT");
      graceTimer = setTimeout(() => child.kill("SIGTERM"), CANCEL_GRACE_MS);
    };
    request.signal.addEventListener("abort", onAbort, { once: true });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(graceTimer);
    request.signal.removeEventListener("abort", onAbort);
    active.delete(request.runId);

    const conclusion: RunnerResult["conclusion"] = request.signal.aborted
      ? "cancelled"
      : code === 0
        ? "success"
        : "failure";
    const run: FinishedRun = {
      code,
      signal,
      outputs: parseOutputs(await readFile(outputFile, "utf8")),
      workspace,
      conclusion,
      summary: await readSummary(summaryFile),
    };
    finished.push(run);
    options.onFinish?.(request, run);
    return { conclusion };
  }

  return {
    runner: execute,
    finished,
    crash(which) {
      let killed = 0;
      for (const { child, inputs } of active.values()) {
        if (!which(inputs)) continue;
        child.kill("SIGKILL");
        killed += 1;
      }
      return killed;
    },
  };
}

async function readSummary(path: string): Promise<string | null> {
  const bytes = await readFile(path);
  return bytes.length > MAX_STEP_SUMMARY_BYTES ? null : bytes.toString("utf8");
}

/** `name<<DELIM\nvalue\nDELIM` blocks, as @actions/core writes GITHUB_OUTPUT. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const match of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    if (match[1] !== undefined) outputs[match[1]] = match[3] ?? "";
  }
  return outputs;
}
