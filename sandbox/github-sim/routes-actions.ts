import type { RequestContext, Route, RouteResult } from "./core.ts";
import { branchSha, readPath, resolveCommit } from "./git.ts";
import { HttpError, notFound, validationFailed } from "./http-error.ts";
import type { Repo, Workflow, WorkflowRun } from "./model.ts";
import {
  actorUser,
  bodyObject,
  emitRepoEvent,
  intParam,
  now,
  paged,
  pagedAsync,
  requirePermission,
  requireRepo,
  requiredString,
} from "./route-helpers.ts";
import { workflowJson, workflowRunJson } from "./serialize-run.ts";
import { checkDispatch, runDetailsNotPermitted } from "./workflow-dispatch-rules.ts";
import { evaluateTemplate } from "./workflow-expressions.ts";
import { runConcurrency } from "./concurrency.ts";

function findWorkflow(repo: Repo, idOrFile: string): Workflow | undefined {
  return repo.workflows.find(
    (workflow) => String(workflow.id) === idOrFile || workflow.path.endsWith(`/${idOrFile}`),
  );
}

async function workflowFileExists(repo: Repo, file: string): Promise<boolean> {
  if (!/^[\w.-]+\.ya?ml$/.test(file)) return false;
  const head = await branchSha(repo.gitDir, repo.defaultBranch);
  return head !== null && (await readPath(repo.gitDir, head, `.github/workflows/${file}`)) !== null;
}

// GitHub knows a workflow from its file in .github/workflows on the default branch; the simulator registers it
// the first time it is asked for.
function ensureWorkflow(ctx: Pick<RequestContext, "core">, repo: Repo, idOrFile: string): Workflow {
  const existing = findWorkflow(repo, idOrFile);
  if (existing) return existing;
  if (/^\d+$/.test(idOrFile)) throw notFound();
  const workflow: Workflow = {
    id: ctx.core.store.nextId(),
    name: idOrFile.replace(/\.ya?ml$/, ""),
    path: `.github/workflows/${idOrFile}`,
  };
  repo.workflows.push(workflow);
  return workflow;
}

async function knownWorkflow(ctx: RequestContext, repo: Repo): Promise<Workflow> {
  const id = ctx.params.workflow_id ?? "";
  const workflow =
    findWorkflow(repo, id) ??
    ((await workflowFileExists(repo, id)) ? ensureWorkflow(ctx, repo, id) : undefined);
  if (!workflow) throw notFound();
  return workflow;
}

async function dispatch(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const workflow = await knownWorkflow(ctx, repo);
  const body = bodyObject(ctx);
  if (ctx.core.dispatchRunDetails === "rejected" && "return_run_details" in body)
    throw runDetailsNotPermitted();
  const ref = requiredString(body, "ref", "WorkflowDispatch").replace(/^refs\/heads\//, "");
  const headSha = await resolveCommit(repo.gitDir, `refs/heads/${ref}`);
  if (!headSha)
    throw new HttpError(422, {
      message: `No ref found for: ${ref}`,
      documentation_url: "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event",
      status: "422",
    });
  const inputs: Record<string, string> = {};
  const rawInputs = body.inputs ?? {};
  if (typeof rawInputs !== "object" || rawInputs === null)
    throw validationFailed([{ resource: "WorkflowDispatch", field: "inputs", code: "invalid" }]);
  for (const [key, value] of Object.entries(rawInputs))
    inputs[key] = typeof value === "string" ? value : JSON.stringify(value);
  const dispatched = await checkDispatch(repo.gitDir, headSha, workflow.path, inputs);
  const at = now(ctx);
  const id = ctx.core.store.nextId();
  // GitHub evaluates the workflow's `run-name` and `concurrency` when it creates the run.
  const contexts = { inputs: dispatched.inputs, github: { run_id: String(id) } };
  const displayTitle =
    ctx.core.runName?.({ workflowPath: workflow.path, inputs }) ??
    (dispatched.runName === undefined ? workflow.name : evaluateTemplate(dispatched.runName, contexts));
  const concurrency = runConcurrency(dispatched.text, contexts, ctx.core.calledWorkflows);
  const run: WorkflowRun = {
    id,
    runNumber: repo.runs.filter((candidate) => candidate.workflowId === workflow.id).length + 1,
    workflowId: workflow.id,
    workflowPath: workflow.path,
    name: workflow.name,
    displayTitle,
    event: "workflow_dispatch",
    status: "queued",
    conclusion: null,
    headBranch: ref,
    headSha,
    inputs,
    actor: actorUser(ctx).login,
    createdAt: at,
    updatedAt: at,
    runStartedAt: at,
    ...(concurrency ? { concurrency } : {}),
  };
  repo.runs.push(run);
  emitRepoEvent(ctx, repo, "workflow_run", {
    action: "requested",
    workflow_run: await workflowRunJson(ctx.core, repo, run),
    workflow: workflowJson(ctx.core, repo, workflow),
  });
  ctx.core.startRun(repo, run.id);
  if (body.return_run_details === true && ctx.core.dispatchRunDetails === true) {
    const api = `${ctx.core.urls.api}/repos/${repo.owner}/${repo.name}/actions/runs/${run.id}`;
    return {
      status: 200,
      body: {
        workflow_run_id: run.id,
        run_url: api,
        html_url: `${ctx.core.urls.web}/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
      },
    };
  }
  return { status: 204 };
}

function filteredRuns(ctx: RequestContext, repo: Repo, workflowId: number | null): WorkflowRun[] {
  const branch = ctx.query.get("branch");
  const status = ctx.query.get("status");
  const actor = ctx.query.get("actor");
  const event = ctx.query.get("event");
  const headSha = ctx.query.get("head_sha");
  return repo.runs
    .filter(
      (run) =>
        (workflowId === null || run.workflowId === workflowId) &&
        (!branch || run.headBranch === branch) &&
        (!actor || run.actor === actor) &&
        (!event || run.event === event) &&
        (!headSha || run.headSha === headSha),
    )
    .filter((run) => !status || run.status === status || run.conclusion === status)
    .sort((a, b) => b.id - a.id);
}

async function listRuns(ctx: RequestContext, workflowId: number | null): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const runs = filteredRuns(ctx, repo, workflowId);
  const result = await pagedAsync(ctx, runs, (run) => workflowRunJson(ctx.core, repo, run));
  return { ...result, body: { total_count: runs.length, workflow_runs: result.body } };
}

function requireRun(ctx: RequestContext, repo: Repo): WorkflowRun {
  const id = intParam(ctx, "run_id");
  const run = repo.runs.find((candidate) => candidate.id === id);
  if (!run) throw notFound();
  return run;
}

function cancelRun(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  requirePermission(ctx, repo, "write");
  const run = requireRun(ctx, repo);
  if (run.status === "completed") {
    throw new HttpError(409, {
      message: "Cannot cancel a workflow run that is completed.",
      documentation_url: "https://docs.github.com/rest/actions/workflow-runs#cancel-a-workflow-run",
      status: "409",
    });
  }
  ctx.core.cancelRun(repo, run.id, actorUser(ctx));
  return { status: 202, body: {} };
}

export const actionRoutes: Route[] = [
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
    auth: "token",
    handler: dispatch,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/workflows",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      const result = paged(ctx, repo.workflows, (workflow) => workflowJson(ctx.core, repo, workflow));
      return { ...result, body: { total_count: repo.workflows.length, workflows: result.body } };
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
    auth: "token",
    handler: async (ctx) => {
      const repo = requireRepo(ctx);
      return listRuns(ctx, (await knownWorkflow(ctx, repo)).id);
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/runs",
    auth: "token",
    handler: (ctx) => listRuns(ctx, null),
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/runs/{run_id}",
    auth: "token",
    handler: async (ctx) => {
      const repo = requireRepo(ctx);
      return { status: 200, body: await workflowRunJson(ctx.core, repo, requireRun(ctx, repo)) };
    },
  },
  {
    method: "POST",
    template: "/repos/{owner}/{repo}/actions/runs/{run_id}/cancel",
    auth: "token",
    handler: cancelRun,
  },
];
