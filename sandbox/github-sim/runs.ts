import type { SimCore } from "./core.ts";
import type { Repo, RunConclusion, User, WorkflowRun } from "./model.ts";
import { isoNow } from "./model.ts";
import { workflowJson, workflowRunJson } from "./serialize-run.ts";
import { findUser } from "./store.ts";

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
export function createRunController(
  getCore: () => SimCore,
  runner: WorkflowRunner | undefined,
): RunController {
  const active = new Map<number, AbortController>();
  const pending = new Set<Promise<void>>();

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
    await emitRun(repo, run, "completed", sender ?? actorOf(run));
  }

  function actorOf(run: WorkflowRun): User {
    const user = findUser(getCore().store, run.actor);
    if (!user) throw new Error(`unknown actor ${run.actor}`);
    return user;
  }

  async function execute(repo: Repo, run: WorkflowRun, activeRunner: WorkflowRunner): Promise<void> {
    const controller = new AbortController();
    active.set(run.id, controller);
    run.status = "in_progress";
    run.updatedAt = isoNow(getCore().store);
    await emitRun(repo, run, "in_progress", actorOf(run));
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
      const activeRunner = runner;
      // Start after the dispatch response, as GitHub queues runs asynchronously.
      const task = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        execute(repo, run, activeRunner),
      );
      pending.add(task);
      void task.finally(() => pending.delete(task));
    },
    cancel(repo, runId, by) {
      const task = complete(repo, runId, "cancelled", by);
      pending.add(task);
      void task.finally(() => pending.delete(task));
    },
    complete,
    async settle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
