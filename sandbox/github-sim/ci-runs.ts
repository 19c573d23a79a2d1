/**
 * CI on the simulated GitHub: workflow runs with jobs, steps and logs, and
 * check suites of other apps with check runs and annotations. A run or suite
 * is recorded complete and announced as GitHub does — `workflow_run`
 * (requested, completed) and `check_suite` completed — on the commit it ran on.
 * With a CI executor configured, `scan()` starts CI once on every open pull
 * request head it has not seen (GitHub runs `on: pull_request` workflows on
 * `opened`, `synchronize` and `reopened`:
 * https://docs.github.com/actions/writing-workflows/choosing-when-your-workflow-runs/events-that-trigger-workflows#pull_request).
 * The simulator looks at the moments in `mayMoveHeads`, not at every push: a
 * push in the middle of a Locus run is seen when that run ends. A head that a
 * job's GITHUB_TOKEN caused (it opened the pull request, or pushed the commit)
 * starts nothing (workflow-token-rules.ts).
 */
import type { CheckConclusion, CheckRun, CheckSuite, CiAnnotation, CiApp, CiOutput } from "./ci-model.ts";
import { GITHUB_ACTIONS_APP, ciState } from "./ci-model.ts";
import { checkSuiteJson } from "./ci-serialize.ts";
import type { SimCore } from "./core.ts";
import { branchSha } from "./git.ts";
import type { Repo, WorkflowRun } from "./model.ts";
import { isoNow } from "./model.ts";
import { workflowJson, workflowRunJson } from "./serialize-run.ts";
import { ensureUser } from "./store.ts";
import { pullsAt } from "./ci-serialize.ts";
import { headStartsWorkflows } from "./workflow-token-rules.ts";

export interface CiStepSpec {
  name: string;
  conclusion?: CheckConclusion;
  output?: string | string[];
}

export interface CiJobSpec {
  name: string;
  steps: CiStepSpec[];
  annotations?: CiAnnotation[];
}

export interface CiRunSpec {
  headBranch: string;
  // Default: the branch's current head.
  headSha?: string;
  workflowPath?: string;
  name?: string;
  event?: "push" | "pull_request";
  actor?: string;
  jobs: CiJobSpec[];
}

export interface CheckRunSpec {
  name: string;
  conclusion: CheckConclusion;
  output?: Partial<CiOutput>;
  annotations?: CiAnnotation[];
}

export interface ExternalSuiteSpec {
  app: { slug: string; name?: string; owner?: string };
  headBranch: string;
  headSha?: string;
  checkRuns: CheckRunSpec[];
}

export interface CiExecution {
  owner: string;
  repo: string;
  gitDir: string;
  headBranch: string;
  headSha: string;
}

// Runs the repository's CI on a commit and says what each job did.
export type CiExecutor = (execution: CiExecution) => Promise<CiJobSpec[]>;

export interface CiOptions {
  workflowPath?: string;
  name?: string;
  execute: CiExecutor;
}

export interface CiController {
  run: (repo: Repo, spec: CiRunSpec) => Promise<WorkflowRun>;
  externalSuite: (repo: Repo, spec: ExternalSuiteSpec) => Promise<CheckSuite>;
  // Starts CI on every open pull request head not yet seen (needs the `ci` option).
  scan: () => Promise<void>;
  settle: () => Promise<void>;
}

const CI_PATH = ".github/workflows/ci.yml";

function worst(conclusions: CheckConclusion[]): CheckConclusion {
  for (const candidate of ["failure", "timed_out", "cancelled"] as const)
    if (conclusions.includes(candidate)) return candidate;
  return conclusions.every((c) => c === "skipped") && conclusions.length > 0 ? "skipped" : "success";
}

function lines(output: string | string[] | undefined): string[] {
  if (output === undefined) return [];
  return Array.isArray(output) ? output : output.replace(/\n$/, "").split("\n");
}

export function createCiController(getCore: () => SimCore, options: CiOptions | undefined): CiController {
  const pending = new Set<Promise<void>>();

  function track(task: Promise<void>): void {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  }

  async function headOf(repo: Repo, branch: string, sha: string | undefined): Promise<string> {
    const head = sha ?? (await branchSha(repo.gitDir, branch));
    if (!head) throw new Error(`ci: no branch ${branch} in ${repo.owner}/${repo.name}`);
    return head;
  }

  async function emitSuite(repo: Repo, suite: CheckSuite, count: number, sender: string): Promise<void> {
    const core = getCore();
    core.emit(
      "check_suite",
      { action: "completed", check_suite: await checkSuiteJson(core, repo, suite, count) },
      { repo, sender: ensureUser(core.store, sender) },
    );
  }

  async function run(repo: Repo, spec: CiRunSpec): Promise<WorkflowRun> {
    const core = getCore();
    const state = ciState(repo);
    const headSha = await headOf(repo, spec.headBranch, spec.headSha);
    const path = spec.workflowPath ?? CI_PATH;
    let workflow = repo.workflows.find((candidate) => candidate.path === path);
    if (!workflow) {
      workflow = { id: core.store.nextId(), name: spec.name ?? "CI", path };
      repo.workflows.push(workflow);
    }
    const at = isoNow(core.store);
    const actor = spec.actor ?? repo.owner;
    const workflowRun: WorkflowRun = {
      id: core.store.nextId(),
      runNumber: repo.runs.filter((candidate) => candidate.workflowId === workflow.id).length + 1,
      workflowId: workflow.id,
      workflowPath: path,
      name: workflow.name,
      displayTitle: spec.name ?? workflow.name,
      event: spec.event ?? "pull_request",
      status: "queued",
      conclusion: null,
      headBranch: spec.headBranch,
      headSha,
      inputs: {},
      actor,
      createdAt: at,
      updatedAt: at,
      runStartedAt: at,
    };
    repo.runs.push(workflowRun);
    const jobs: CheckRun[] = spec.jobs.map((job) => {
      const steps = job.steps.map((step, index) => ({
        number: index + 1,
        name: step.name,
        conclusion: step.conclusion ?? "success",
        output: lines(step.output),
      }));
      const conclusion = worst(steps.map((step) => step.conclusion));
      return {
        id: core.store.nextId(),
        suiteId: workflowRun.id,
        name: job.name,
        headSha,
        conclusion,
        startedAt: at,
        completedAt: at,
        output: { title: null, summary: null, text: null },
        annotations: [
          ...(job.annotations ?? []),
          ...(conclusion === "failure"
            ? [
                {
                  path: ".github",
                  startLine: 1,
                  endLine: 1,
                  level: "failure" as const,
                  title: null,
                  message: "Process completed with exit code 1.",
                },
              ]
            : []),
        ],
        job: { runId: workflowRun.id, workflowName: workflow.name, headBranch: spec.headBranch, steps },
      };
    });
    state.checkRuns.push(...jobs);
    const conclusion = worst(jobs.map((job) => job.conclusion));
    const suite: CheckSuite = {
      id: workflowRun.id,
      headSha,
      headBranch: spec.headBranch,
      app: GITHUB_ACTIONS_APP,
      conclusion,
      createdAt: at,
      updatedAt: at,
    };
    state.suites.push(suite);
    const sender = ensureUser(core.store, actor);
    const announce = async (action: string) => {
      const json = await workflowRunJson(core, repo, workflowRun);
      core.emit(
        "workflow_run",
        {
          action,
          workflow_run: {
            ...json,
            pull_requests: await pullsAt(core, repo, spec.headBranch, headSha),
          },
          workflow: workflowJson(core, repo, workflow),
        },
        { repo, sender },
      );
    };
    await announce("requested");
    workflowRun.status = "completed";
    workflowRun.conclusion = conclusion === "skipped" ? "skipped" : conclusion;
    workflowRun.updatedAt = isoNow(core.store);
    await announce("completed");
    await emitSuite(repo, suite, jobs.length, actor);
    return workflowRun;
  }

  async function externalSuite(repo: Repo, spec: ExternalSuiteSpec): Promise<CheckSuite> {
    const core = getCore();
    const state = ciState(repo);
    const headSha = await headOf(repo, spec.headBranch, spec.headSha);
    const at = isoNow(core.store);
    const app: CiApp = {
      id: core.store.nextId(),
      slug: spec.app.slug,
      name: spec.app.name ?? spec.app.slug,
      owner: spec.app.owner ?? spec.app.slug,
    };
    const suite: CheckSuite = {
      id: core.store.nextId(),
      headSha,
      headBranch: spec.headBranch,
      app,
      conclusion: worst(spec.checkRuns.map((check) => check.conclusion)),
      createdAt: at,
      updatedAt: at,
    };
    state.suites.push(suite);
    for (const check of spec.checkRuns) {
      state.checkRuns.push({
        id: core.store.nextId(),
        suiteId: suite.id,
        name: check.name,
        headSha,
        conclusion: check.conclusion,
        startedAt: at,
        completedAt: at,
        output: { title: null, summary: null, text: null, ...check.output },
        annotations: check.annotations ?? [],
      });
    }
    await emitSuite(repo, suite, spec.checkRuns.length, `${app.slug}[bot]`);
    return suite;
  }

  async function scanRepo(repo: Repo, ci: CiOptions): Promise<void> {
    const state = ciState(repo);
    const path = ci.workflowPath ?? CI_PATH;
    for (const issue of [...repo.issues.values()]) {
      if (!issue.pull || issue.state !== "open") continue;
      const headSha = await branchSha(repo.gitDir, issue.pull.head);
      const key = `${path}@${headSha ?? ""}`;
      if (!headSha || state.ranOn.has(key)) continue;
      state.ranOn.add(key);
      const pull = `${path}#${issue.number}`;
      const opened = !state.seenPulls.has(pull);
      state.seenPulls.add(pull);
      if (!headStartsWorkflows(repo, issue, headSha, opened)) continue;
      const jobs = await ci.execute({
        owner: repo.owner,
        repo: repo.name,
        gitDir: repo.gitDir,
        headBranch: issue.pull.head,
        headSha,
      });
      await run(repo, {
        headBranch: issue.pull.head,
        headSha,
        workflowPath: path,
        name: ci.name ?? "CI",
        jobs,
      });
    }
  }

  return {
    run,
    externalSuite,
    scan() {
      const ci = options;
      if (!ci) return Promise.resolve();
      const task = (async () => {
        for (const repo of getCore().store.repos.values()) await scanRepo(repo, ci);
      })();
      track(task);
      return task;
    },
    async settle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/**
 * Events after which a pull request head may be new: a PR opened or reopened,
 * or a dispatched run (the work that pushes) finished. The simulator sees no
 * git push, so these are the moments it looks.
 */
export function mayMoveHeads(event: string, payload: Record<string, unknown>): boolean {
  if (event === "pull_request") return payload.action === "opened" || payload.action === "reopened";
  if (event !== "workflow_run" || payload.action !== "completed") return false;
  const run = payload.workflow_run as { event?: unknown } | undefined;
  return run?.event === "workflow_dispatch";
}
