/**
 * What failed in CI on a commit, read through the REST API: the check runs
 * of a workflow run (its jobs, with steps), of a check suite or of a commit,
 * a check run's annotations, and a job's log text — `GET …/actions/jobs/{id}/logs`
 * answers with a redirect to a signed URL, which the request follows.
 * The schemas declare only the fields Locus reads.
 */
import { z } from "zod";
import type { CiCheck, CiReads } from "./ci-read-types.ts";
import type { Transport } from "./transport-types.ts";

const BAD = new Set(["failure", "timed_out", "cancelled", "action_required", "startup_failure"]);

const outputSchema = z.object({
  title: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  summary: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  text: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});

const jobsSchema = z.object({
  jobs: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      conclusion: z.string().nullable(),
      steps: z
        .array(z.object({ name: z.string(), conclusion: z.string().nullable() }))
        .optional()
        .default([]),
    }),
  ),
});

const checkRunsSchema = z.object({
  check_runs: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      conclusion: z.string().nullable(),
      output: outputSchema,
      app: z.object({ slug: z.string() }).nullable(),
    }),
  ),
});

const annotationSchema = z.object({
  path: z.string(),
  start_line: z.number(),
  annotation_level: z.string().nullable(),
  title: z.string().nullable(),
  message: z.string().nullable(),
});

const runSchema = z.object({ head_sha: z.string(), html_url: z.string(), updated_at: z.string() });
const suiteSchema = z.object({ updated_at: z.string().nullable() });

const EMPTY_OUTPUT = { title: null, summary: null, text: null };

export function ciReadOps(t: Transport): CiReads {
  async function checksOf(route: string, params: Record<string, unknown>): Promise<CiCheck[]> {
    const data = await t.rest(route, { ...params, per_page: 100 }, checkRunsSchema);
    return data.check_runs
      .filter((run) => BAD.has(run.conclusion ?? ""))
      .map((run) => ({
        id: run.id,
        name: run.name,
        conclusion: run.conclusion,
        isJob: run.app?.slug === "github-actions",
        output: run.output,
        failedSteps: [],
      }));
  }

  return {
    async failedChecks(source) {
      if (source.kind === "suite")
        return checksOf("GET /repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs", {
          check_suite_id: source.id,
        });
      if (source.kind === "commit")
        return checksOf("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", {
          ref: source.sha,
          filter: "latest",
        });
      const data = await t.rest(
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs",
        { run_id: source.id, filter: "latest", per_page: 100 },
        jobsSchema,
      );
      return data.jobs
        .filter((job) => BAD.has(job.conclusion ?? ""))
        .map((job) => ({
          id: job.id,
          name: job.name,
          conclusion: job.conclusion,
          isJob: true,
          output: EMPTY_OUTPUT,
          failedSteps: job.steps.filter((step) => BAD.has(step.conclusion ?? "")).map((step) => step.name),
        }));
    },
    async annotations(checkRunId, limit) {
      const data = await t.rest(
        "GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations",
        { check_run_id: checkRunId, per_page: Math.min(limit, 100) },
        z.array(annotationSchema),
      );
      return data.slice(0, limit).map((a) => ({
        path: a.path,
        startLine: a.start_line,
        level: a.annotation_level ?? "notice",
        title: a.title,
        message: a.message ?? "",
      }));
    },
    jobLog(jobId) {
      return t.restOrNull(
        "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
        { job_id: jobId },
        z.string(),
      );
    },
    async runHead(runId) {
      const run = await t.restOrNull(
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}",
        { run_id: runId },
        runSchema,
      );
      return run ? { sha: run.head_sha, url: run.html_url, updatedAt: run.updated_at } : null;
    },
    async suiteUpdatedAt(suiteId) {
      const suite = await t.restOrNull(
        "GET /repos/{owner}/{repo}/check-suites/{check_suite_id}",
        { check_suite_id: suiteId },
        suiteSchema,
      );
      return suite?.updated_at ?? null;
    },
  };
}
