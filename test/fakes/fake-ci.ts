/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's CI (github-fake.ts): a workflow run with jobs and steps, each job
 * a check run of the GitHub Actions app with a log in GitHub's format (a
 * timestamp on every line, `##[group]Run <step>`, `##[error]` where a step
 * failed) and, when it failed, the annotation GitHub adds; and check runs of
 * another app's suite. The reads answer what failed, as lib/github/ci-reads.ts
 * reads it over REST.
 */
import type { CiCheck, CiReads, WorkflowRun } from "../../lib/github/index.ts";
import type { FakeCheckRun, FakeCiStep } from "./fake-review-records.ts";
import { urlOf, type FakeStore } from "./github-fake-store.ts";

/** A job of a run, as a test describes it: its steps and annotations. */
export interface FakeJobSpec {
  readonly name: string;
  readonly steps: readonly { name: string; conclusion?: string; output?: string | readonly string[] }[];
  readonly annotations?: FakeCheckRun["annotations"];
}

export interface FakeCiRunSpec {
  readonly headBranch: string;
  /** Default: the branch's head as the fake knows it. */
  readonly headSha?: string;
  readonly name?: string;
  readonly jobs: readonly FakeJobSpec[];
}

/** A suite of another app, with its check runs. */
export interface FakeSuiteSpec {
  readonly headSha: string;
  readonly checkRuns: readonly Pick<FakeCheckRun, "name" | "conclusion" | "output" | "annotations">[];
}

const BAD = new Set(["failure", "timed_out", "cancelled", "action_required", "startup_failure"]);

function worst(conclusions: readonly string[]): string {
  return ["failure", "timed_out", "cancelled"].find((bad) => conclusions.includes(bad)) ?? "success";
}

function jobLog(at: string, steps: readonly FakeCiStep[]): string {
  const stamp = at.replace(/(\.\d+)?Z$/, ".0000000Z");
  const line = (text: string) => `${stamp} ${text}\n`;
  let log = line("##[group]Set up job") + line("##[endgroup]");
  for (const step of steps) {
    if (step.conclusion === "skipped") continue;
    log += line(`##[group]Run ${step.name}`) + line("##[endgroup]");
    for (const text of step.output) log += line(text);
    if (step.conclusion === "failure") log += line("##[error]Process completed with exit code 1.");
  }
  return log + line("Cleaning up orphan processes");
}

function outputLines(output: string | readonly string[] | undefined): string[] {
  if (output === undefined) return [];
  return typeof output === "string" ? output.replace(/\n$/, "").split("\n") : [...output];
}

/** Runs CI as GitHub Actions would report it: a completed workflow run whose jobs are check runs. */
export function seedCiRun(store: FakeStore, spec: FakeCiRunSpec): WorkflowRun {
  const headSha = spec.headSha ?? store.branches.get(spec.headBranch);
  if (headSha === undefined) throw new Error(`github-fake: no branch ${spec.headBranch} to run CI on`);
  const id = store.nextId();
  const at = store.now();
  const jobs = spec.jobs.map((job): FakeCheckRun => {
    const steps = job.steps.map((step) => ({
      name: step.name,
      conclusion: step.conclusion ?? "success",
      output: outputLines(step.output),
    }));
    const conclusion = worst(steps.map((step) => step.conclusion));
    const exit = { path: ".github", startLine: 1, level: "failure", title: null };
    return {
      id: store.nextId(),
      name: job.name,
      headSha,
      suiteId: id,
      conclusion,
      output: { title: null, summary: null, text: null },
      annotations: [
        ...(job.annotations ?? []),
        ...(conclusion === "failure" ? [{ ...exit, message: "Process completed with exit code 1." }] : []),
      ],
      steps,
      log: jobLog(at, steps),
    };
  });
  store.checkRuns.push(...jobs);
  store.ciHeads.set(id, { sha: headSha, updatedAt: at });
  const run = {
    id,
    name: spec.name ?? "CI",
    displayTitle: spec.name ?? "CI",
    status: "completed",
    conclusion: worst(jobs.map((job) => job.conclusion)),
    event: "pull_request",
    headBranch: spec.headBranch,
    url: urlOf(store, `actions/runs/${id}`),
    createdAt: at,
  };
  store.workflowRuns.unshift(run);
  return run;
}

/** Another app's check suite on a commit; answers the suite's id. */
export function seedSuite(store: FakeStore, spec: FakeSuiteSpec): number {
  const id = store.nextId();
  for (const check of spec.checkRuns)
    store.checkRuns.push({
      ...check,
      id: store.nextId(),
      headSha: spec.headSha,
      suiteId: id,
      steps: null,
      log: null,
    });
  store.ciHeads.set(id, { sha: spec.headSha, updatedAt: store.now() });
  return id;
}

function failed(check: FakeCheckRun): CiCheck {
  return {
    id: check.id,
    name: check.name,
    conclusion: check.conclusion,
    isJob: check.steps !== null,
    output: check.steps === null ? check.output : { title: null, summary: null, text: null },
    failedSteps: (check.steps ?? []).filter((step) => BAD.has(step.conclusion)).map((step) => step.name),
  };
}

export function fakeCi(store: FakeStore): CiReads {
  return {
    async failedChecks(source) {
      store.record("ci.failedChecks", [source]);
      return store.checkRuns
        .filter((check) =>
          source.kind === "commit" ? check.headSha === source.sha : check.suiteId === source.id,
        )
        .filter((check) => BAD.has(check.conclusion))
        .map((check) => ({
          ...failed(check),
          // Over REST a commit's or suite's check runs carry no steps; a run's jobs do.
          ...(source.kind === "run" ? {} : { failedSteps: [], output: check.output }),
        }));
    },
    async annotations(checkRunId, limit) {
      store.record("ci.annotations", [checkRunId, limit]);
      return (store.checkRuns.find((check) => check.id === checkRunId)?.annotations ?? []).slice(0, limit);
    },
    async jobLog(jobId) {
      store.record("ci.jobLog", [jobId]);
      return store.checkRuns.find((check) => check.id === jobId)?.log ?? null;
    },
    async runHead(runId) {
      store.record("ci.runHead", [runId]);
      const head = store.ciHeads.get(runId);
      return head ? { ...head, url: urlOf(store, `actions/runs/${runId}`) } : null;
    },
    async suiteUpdatedAt(suiteId) {
      store.record("ci.suiteUpdatedAt", [suiteId]);
      return store.ciHeads.get(suiteId)?.updatedAt ?? null;
    },
  };
}
