import type { SimCore } from "./core.ts";
import type { Repo, RunConclusion, User, WorkflowRun } from "./model.ts";
import { isoNow } from "./model.ts";
import { workflowJson, workflowRunJson } from "./serialize-run.ts";
import { findUser } from "./store.ts";
import { createConcurrencyGate } from "./concurrency.ts";
import { mintWorkflowToken } from "./workflow-token.ts";

export interface RunnerRequest {
  owner: string;
  repo: string;
  gitDir: string;
  runId: number;
  workflowPath: string;
  ref: string;
  headSha: string;
  inputs: Record<string, string>;
  actor: string;
  displayTitle: string;
  /** The job's GITHUB_TOKEN (workflow-token.ts): its workflow's permissions, revoked when the run completes. */
  githubToken: string;
  // Aborted when the run is cancelled through the API.
  signal: AbortSignal;
}

export interface RunnerResult {
  conclusion: RunConclusion;
  // Replaces the run's display_title (the workflow's run-name).
  displayTitle?: string;
}

export type WorkflowRunner = (request: RunnerRequest) => Promise<RunnerResult> | RunnerResult;

export interface RunController {
  start: (repo: Repo, runId: number) => void;
  cancel: (repo: Repo, runId: number, by: User) => void;
  complete: (repo: Repo, runId: number, conclusion: RunConclusion, sender?: User) => Promise<void>;
  settle: () => Promise<void>;
}

// Drives runs queued → in_progress → completed and reports each step as a workflow_run webhook.
// A run in a concurrency group waits while another of its group runs (concurrency.ts).
export function createRunController(
  getCore: () => SimCore,
  runner: WorkflowRunner | undefined,
): RunController {
  const active = new Map<number, AbortController>();
  const pending = new Set<Promise<void>>();
  const gate = createConcurrencyGate();
  const launched = new Set<number>();
  // Each running run's GITHUB_TOKEN, revoked when the run completes.
  const tokens = new Map<number, string>();

  function track(task: Promise<void>): void {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  }

  function launch(repo: Repo, run: WorkflowRun): void {
    if (!runner || run.status === "completed") return;
    const activeRunner = runner;
    launched.add(run.id);
    // Start after the dispatch response, as GitHub queues runs asynchronously.
    track(new Promise<void>((resolve) => setImmediate(resolve)).then(() => execute(repo, run, activeRunner)));
  }

  async function emitRun(repo: Repo, run: WorkflowRun, action: string, sender: User): Promise<void> {
    const core = getCore();
    const workflow = repo.workflows.find((candidate) => candidate.id === run.workflowId);
    const payload = {
      action,
      workflow_run: await workflowRunJson(core, repo, run),
      workflow: workflow ? workflowJson(core, repo, workflow) : null,
    };
    core.emit("workflow_run", payload, { repo, sender });
  }

  function runById(repo: Repo, runId: number): WorkflowRun | undefined {
    return repo.runs.find((candidate) => candidate.id === runId);
  }

  async function complete(
    repo: Repo,
    runId: number,
    conclusion: RunConclusion,
    sender?: User,
  ): Promise<void> {
    const run = runById(repo, runId);
    if (!run || run.status === "completed") return;
    run.status = "completed";
    run.conclusion = conclusion;
    run.updatedAt = isoNow(getCore().store);
    active.get(runId)?.abort();
    active.delete(runId);
    const token = tokens.get(runId);
    if (token !== undefined) getCore().store.tokens.delete(token);
    tokens.delete(runId);
    // The group's pending run starts once its running run is done.
    const next = run.concurrency && launched.has(runId) ? gate.release(run.concurrency.group) : undefined;
    const waiting = next === undefined ? undefined : runById(repo, next);
    if (waiting) launch(repo, waiting);
    await emitRun(repo, run, "completed", sender ?? actorOf(run));
  }

  function actorOf(run: WorkflowRun): User {
    const user = findUser(getCore().store, run.actor);
    if (!user) throw new Error(`unknown actor ${run.actor}`);
    return user;
  }

  async function execute(repo: Repo, run: WorkflowRun, activeRunner: WorkflowRunner): Promise<void> {
    // Cancelled while it waited to start.
    if (run.status === "completed") return;
    const controller = new AbortController();
    active.set(run.id, controller);
    run.status = "in_progress";
    run.updatedAt = isoNow(getCore().store);
    await emitRun(repo, run, "in_progress", actorOf(run));
    const core = getCore();
    const githubToken = (await mintWorkflowToken(core.store, repo, run, core.calledWorkflows)).token;
    tokens.set(run.id, githubToken);
    // Cancelled while its token was minted: complete() found no token to revoke.
    if (runById(repo, run.id)?.conclusion) {
      core.store.tokens.delete(githubToken);
      return;
    }
    let result: RunnerResult;
    try {
      result = await activeRunner({
        owner: repo.owner,
        repo: repo.name,
        gitDir: repo.gitDir,
        runId: run.id,
        workflowPath: run.workflowPath,
        ref: run.headBranch,
        headSha: run.headSha,
        inputs: { ...run.inputs },
        actor: run.actor,
        displayTitle: run.displayTitle,
        githubToken,
        signal: controller.signal,
      });
    } catch {
      result = { conclusion: "failure" };
    }
    // A cancel during the run already completed it.
    if (runById(repo, run.id)?.conclusion) return;
    if (result.displayTitle) run.displayTitle = result.displayTitle;
    await complete(repo, run.id, result.conclusion);
  }

  return {
    start(repo, runId) {
      const run = runById(repo, runId);
      if (!run || !runner) return;
      const group = run.concurrency?.group;
      const running =
        group === undefined
          ? undefined
          : repo.runs.find(
              (other) =>
                other.id !== run.id &&
                other.concurrency?.group === group &&
                other.status !== "completed" &&
                launched.has(other.id),
            );
      if (group === undefined || !running) {
        launch(repo, run);
        return;
      }
      // One pending run per group: a newer one cancels it; cancel-in-progress cancels the running one too.
      const displaced = gate.wait(group, run.id);
      if (displaced !== undefined) track(complete(repo, displaced, "cancelled"));
      if (run.concurrency?.cancelInProgress) track(complete(repo, running.id, "cancelled"));
    },
    cancel(repo, runId, by) {
      track(complete(repo, runId, "cancelled", by));
    },
    complete,
    async settle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
