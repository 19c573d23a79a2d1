/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's repository, meters, workflow runs and CI (github-fake.ts). A
 * dispatch adds a queued run named as GitHub would show it, so a later
 * listing (the stale sweep's "is anything running it?") sees it. CI's reads
 * are fake-ci.ts.
 */
import type {
  CallCounter,
  CiPort,
  DispatchPort,
  RepositoryMeters,
  RepositoryReads,
} from "../../lib/github/index.ts";
import { fakeCi } from "./fake-ci.ts";
import { notModelled, urlOf, type FakeStore } from "./github-fake-store.ts";

/** Counts the recorded calls: every member that starts with a verb that changes something is a write. */
function callCounter(store: FakeStore): CallCounter {
  const writes = /^(create|update|set|remove|write|upsert|add|ensure|dispatch|cancel|move|answer)/;
  return {
    record: () => undefined,
    snapshot() {
      const byRoute: Record<string, number> = {};
      for (const call of store.calls) byRoute[call.member] = (byRoute[call.member] ?? 0) + 1;
      const written = store.calls.filter((call) => writes.test(call.member)).length;
      const total = store.calls.length;
      return {
        total,
        reads: total - written,
        writes: written,
        notModified: 0,
        retries: 0,
        byRoute,
        graphqlPoints: 0,
        pointsByRoute: {},
      };
    },
  };
}

/** The run's name as Locus's workflow's `run-name` shows it (lib/dispatch/dispatch-inputs.ts `runName`). */
function runTitle(inputs: Record<string, string>): string {
  const target = inputs["milestone"] || inputs["pr"] || (inputs["issue"] ?? "");
  return `Locus ${inputs["mode"] ?? "?"}${target ? ` #${target}` : ""} (${inputs["delivery"] ?? "?"})`;
}

export function fakeRuns(store: FakeStore): RepositoryMeters & RepositoryReads & DispatchPort & CiPort {
  return {
    repo: store.repo,
    counter: callCounter(store),
    rateLimits: () => [],
    async getDefaultBranch() {
      store.record("getDefaultBranch", []);
      return store.defaultBranch;
    },
    async getCollaboratorPermission(user) {
      store.record("getCollaboratorPermission", [user]);
      return store.permissions.get(user) ?? "none";
    },
    async getFileContent(path, ref) {
      store.record("getFileContent", [path, ref]);
      return store.files.get(path) ?? null;
    },
    async compareDependencies(base, head) {
      store.record("compareDependencies", [base, head]);
      throw notModelled("compareDependencies");
    },
    async dispatchWorkflow(workflow, ref, inputs) {
      store.record("dispatchWorkflow", [workflow, ref, inputs]);
      const id = store.nextId();
      const url = urlOf(store, `actions/runs/${id}`);
      store.workflowRuns.unshift({
        id,
        name: workflow,
        displayTitle: runTitle(inputs),
        status: "queued",
        conclusion: null,
        event: "workflow_dispatch",
        headBranch: ref,
        url,
        createdAt: store.now(),
      });
      return { id, url };
    },
    async listWorkflowRuns(workflow, filter = {}) {
      store.record("listWorkflowRuns", [workflow, filter]);
      return store.workflowRuns
        .filter(
          (run) =>
            filter.status === undefined || run.status === filter.status || run.conclusion === filter.status,
        )
        .filter((run) => filter.branch === undefined || run.headBranch === filter.branch)
        .filter((run) => filter.event === undefined || run.event === filter.event)
        .slice(0, filter.perPage ?? 100);
    },
    async cancelWorkflowRun(runId) {
      store.record("cancelWorkflowRun", [runId]);
      const run = store.workflowRuns.find((candidate) => candidate.id === runId);
      if (!run) throw new Error(`github-fake: run ${runId} does not exist (404)`);
      if (run.status === "completed") return "already-finished";
      run.status = "completed";
      run.conclusion = "cancelled";
      return "cancelled";
    },
    ci: fakeCi(store),
  };
}
