/**
 * Read endpoints for CI: a workflow run's jobs, a job and its log (a redirect
 * to a signed URL), check suites and check runs of a commit, and a check
 * run's annotations. Writes come from the simulator's CI controller.
 */
import type { CheckRun, CheckSuite } from "./ci-model.ts";
import { ciState } from "./ci-model.ts";
import { annotationJson, checkRunJson, checkSuiteJson, jobJson } from "./ci-serialize.ts";
import type { RequestContext, Route, RouteResult } from "./core.ts";
import { resolveCommit } from "./git.ts";
import { HttpError, notFound } from "./http-error.ts";
import type { Repo } from "./model.ts";
import { intParam, paged, pagedAsync, requireRepo } from "./route-helpers.ts";

function suiteOf(repo: Repo, run: CheckRun): CheckSuite {
  const suite = ciState(repo).suites.find((candidate) => candidate.id === run.suiteId);
  if (!suite) throw notFound();
  return suite;
}

function requireCheckRun(ctx: RequestContext, repo: Repo, param: string): CheckRun {
  const id = intParam(ctx, param);
  const run = ciState(repo).checkRuns.find((candidate) => candidate.id === id);
  if (!run) throw notFound();
  return run;
}

function requireJob(ctx: RequestContext, repo: Repo): CheckRun {
  const run = requireCheckRun(ctx, repo, "job_id");
  if (!run.job) throw notFound();
  return run;
}

async function commitSha(ctx: RequestContext, repo: Repo): Promise<string> {
  const ref = ctx.params.ref ?? "";
  const sha =
    (await resolveCommit(repo.gitDir, ref)) ?? (await resolveCommit(repo.gitDir, `refs/heads/${ref}`));
  if (!sha)
    throw new HttpError(422, {
      message: `No commit found for SHA: ${ref}`,
      documentation_url: "https://docs.github.com/rest/checks/suites#list-check-suites-for-a-git-reference",
      status: "422",
    });
  return sha;
}

function listJobs(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const runId = intParam(ctx, "run_id");
  if (!repo.runs.some((run) => run.id === runId)) throw notFound();
  const jobs = ciState(repo).checkRuns.filter((run) => run.job?.runId === runId);
  const result = paged(ctx, jobs, (job) => jobJson(ctx.core, repo, job));
  return { ...result, body: { total_count: jobs.length, jobs: result.body } };
}

function jobLogs(ctx: RequestContext): RouteResult {
  const repo = requireRepo(ctx);
  const job = requireJob(ctx, repo);
  const host = ctx.core.ciLogs;
  if (!host) throw notFound();
  return { status: 302, headers: { location: host.urlFor(job) } };
}

async function listSuites(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const sha = await commitSha(ctx, repo);
  const state = ciState(repo);
  const suites = state.suites.filter((suite) => suite.headSha === sha);
  const count = (suite: CheckSuite) => state.checkRuns.filter((run) => run.suiteId === suite.id).length;
  const result = await pagedAsync(ctx, suites, (suite) =>
    checkSuiteJson(ctx.core, repo, suite, count(suite)),
  );
  return { ...result, body: { total_count: suites.length, check_suites: result.body } };
}

async function getSuite(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  const id = intParam(ctx, "check_suite_id");
  const state = ciState(repo);
  const suite = state.suites.find((candidate) => candidate.id === id);
  if (!suite) throw notFound();
  const count = state.checkRuns.filter((run) => run.suiteId === id).length;
  return { status: 200, body: await checkSuiteJson(ctx.core, repo, suite, count) };
}

async function listCheckRuns(ctx: RequestContext, runs: CheckRun[], repo: Repo): Promise<RouteResult> {
  const name = ctx.query.get("check_name");
  const status = ctx.query.get("status");
  const selected = runs.filter((run) => (!name || run.name === name) && (!status || status === "completed"));
  const result = await pagedAsync(ctx, selected, (run) =>
    checkRunJson(ctx.core, repo, run, suiteOf(repo, run)),
  );
  return { ...result, body: { total_count: selected.length, check_runs: result.body } };
}

export const ciRoutes: Route[] = [
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs",
    auth: "token",
    handler: listJobs,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/jobs/{job_id}",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      return { status: 200, body: jobJson(ctx.core, repo, requireJob(ctx, repo)) };
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
    auth: "token",
    handler: jobLogs,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/commits/{ref}/check-suites",
    auth: "token",
    handler: listSuites,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/check-suites/{check_suite_id}",
    auth: "token",
    handler: getSuite,
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      const id = intParam(ctx, "check_suite_id");
      if (!ciState(repo).suites.some((suite) => suite.id === id)) throw notFound();
      return listCheckRuns(
        ctx,
        ciState(repo).checkRuns.filter((run) => run.suiteId === id),
        repo,
      );
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/commits/{ref}/check-runs",
    auth: "token",
    handler: async (ctx) => {
      const repo = requireRepo(ctx);
      const sha = await commitSha(ctx, repo);
      return listCheckRuns(
        ctx,
        ciState(repo).checkRuns.filter((run) => run.headSha === sha),
        repo,
      );
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/check-runs/{check_run_id}",
    auth: "token",
    handler: async (ctx) => {
      const repo = requireRepo(ctx);
      const run = requireCheckRun(ctx, repo, "check_run_id");
      return { status: 200, body: await checkRunJson(ctx.core, repo, run, suiteOf(repo, run)) };
    },
  },
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations",
    auth: "token",
    handler: (ctx) => {
      const repo = requireRepo(ctx);
      const run = requireCheckRun(ctx, repo, "check_run_id");
      return paged(ctx, run.annotations, (annotation) => annotationJson(ctx.core, repo, run, annotation));
    },
  },
];
