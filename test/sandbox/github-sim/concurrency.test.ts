/**
 * Concurrency groups as GitHub keeps them: one running and one pending run
 * per group; a newer run cancels the pending one, which completes with
 * conclusion `cancelled` (and its workflow_run webhook says so); the pending
 * run starts when the running one finishes. A run of a caller workflow takes
 * the group of the reusable workflow it calls, evaluated with the inputs the
 * caller passes.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { GitHubSimulatorOptions, RunnerResult } from "../../../sandbox/github-sim/index.ts";
import { callerWorkflowFiles } from "../../../sandbox/world/caller-workflow.ts";
import { startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };
const GROUPED = `name: Work
on:
  workflow_dispatch:
    inputs:
      issue: { type: string, default: "" }
concurrency:
  group: work-\${{ inputs.issue }}
jobs: {}
`;

let t: TestSim;
/** Runs stay in progress until the test finishes them, or the test is over. */
const finish = new Map<number, (result: RunnerResult) => void>();
let over = false;

afterEach(async () => {
  over = true;
  for (const resolve of finish.values()) resolve({ conclusion: "success" });
  finish.clear();
  await t.close();
  over = false;
});

async function start(files: Record<string, string>, options: GitHubSimulatorOptions = {}): Promise<Client> {
  t = await startTestSim({
    ...options,
    runner: (request) =>
      over
        ? { conclusion: "success" }
        : new Promise<RunnerResult>((resolve) => finish.set(request.runId, resolve)),
  });
  await t.sim.seed.repo("octocat/hello", { files });
  return t.client(t.sim.as("octocat"));
}

async function dispatch(client: Client, workflow: string, inputs: Record<string, string>) {
  await client.rest.actions.createWorkflowDispatch({ ...repo, workflow_id: workflow, ref: "main", inputs });
  await started();
}

/** Lets started runs reach in_progress and their webhooks go out (the held runs never settle). */
async function started(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await t.sim.webhooks.drain();
}

function runs() {
  return (t.sim.store.repos.get("octocat/hello")?.runs ?? []).map(
    (run) => `${run.status}/${run.conclusion ?? "-"}`,
  );
}

describe("a concurrency group", () => {
  it("keeps one running and one pending run; a newer run cancels the pending one", async () => {
    const client = await start({ ".github/workflows/work.yml": GROUPED });

    await dispatch(client, "work.yml", { issue: "1" });
    await dispatch(client, "work.yml", { issue: "1" });
    await dispatch(client, "work.yml", { issue: "1" });
    await dispatch(client, "work.yml", { issue: "2" });

    expect(runs()).toEqual(["in_progress/-", "completed/cancelled", "queued/-", "in_progress/-"]);
    const cancelled = t.sim.webhooks.deliveries.filter(
      (delivery) =>
        delivery.event === "workflow_run" &&
        delivery.action === "completed" &&
        (delivery.payload.workflow_run as { conclusion: string }).conclusion === "cancelled",
    );
    expect(cancelled).toHaveLength(1);

    const [first] = t.sim.store.repos.get("octocat/hello")?.runs ?? [];
    finish.get(first?.id ?? 0)?.({ conclusion: "success" });
    await started();
    await started();

    expect(runs()).toEqual(["completed/success", "completed/cancelled", "in_progress/-", "in_progress/-"]);
  });

  it("of a reusable workflow applies to the caller's run, with the inputs the caller passes", async () => {
    const reusable = readFileSync(new URL("../../../.github/workflows/locus.yml", import.meta.url), "utf8");
    const client = await start(callerWorkflowFiles(), {
      calledWorkflows: { "locus-dev/locus/.github/workflows/locus.yml": reusable },
    });
    const inputs = { mode: "issue", issue: "7", pr: "", milestone: "", command: "", delivery: "d" };

    await dispatch(client, "locus.yml", { ...inputs, delivery: "d1" });
    await dispatch(client, "locus.yml", { ...inputs, delivery: "d2" });
    await dispatch(client, "locus.yml", { ...inputs, delivery: "d3" });

    const all = t.sim.store.repos.get("octocat/hello")?.runs ?? [];
    expect(all.map((run) => run.concurrency?.group)).toEqual([
      "locus-issue-7",
      "locus-issue-7",
      "locus-issue-7",
    ]);
    expect(runs()).toEqual(["in_progress/-", "completed/cancelled", "queued/-"]);
  });
});
