/**
 * A workflow dispatch answers as GitHub's `actions/create-workflow-dispatch`
 * does: 200 with the run's id and URLs when asked `return_run_details: true`,
 * 204 without a body otherwise, and 204 whatever is asked on a GitHub without
 * run details (older Enterprise Server). Every exchange also passes the
 * OpenAPI conformance check when the simulator closes.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { GitHubSimulatorOptions } from "../../../sandbox/github-sim/index.ts";
import { startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };
const DISPATCH = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";

let t: TestSim;
afterEach(() => t.close());

async function start(options: GitHubSimulatorOptions = {}): Promise<Client> {
  t = await startTestSim(options);
  await t.sim.seed.repo("octocat/hello", { files: { "a.txt": "one\n" } });
  return t.client(t.sim.as("octocat"));
}

async function dispatch(client: Client, extra: Record<string, unknown>) {
  return client.request(DISPATCH, { ...repo, workflow_id: "locus.yml", ref: "main", ...extra });
}

describe("a workflow dispatch", () => {
  it("asked for run details answers 200 with the run it started", async () => {
    const client = await start();

    const answer = await dispatch(client, { return_run_details: true });

    expect(answer.status).toBe(200);
    const { data: run } = await client.rest.actions.getWorkflowRun({
      ...repo,
      run_id: (answer.data as { workflow_run_id: number }).workflow_run_id,
    });
    expect(answer.data).toEqual({ workflow_run_id: run.id, run_url: run.url, html_url: run.html_url });
    expect(t.conformance.operationsSeen).toContain(`POST ${DISPATCH.slice(5)}`);
  });

  it.each([{ return_run_details: false }, {}])("asked %j answers 204 without a body", async (extra) => {
    const client = await start();

    const answer = await dispatch(client, extra);

    expect(answer.status).toBe(204);
    expect(answer.data).toBe(""); // octokit's reading of an empty body
    expect(t.sim.store.repos.get("octocat/hello")?.runs).toHaveLength(1);
  });

  it("on a GitHub without run details answers 204 even when asked, and still starts the run", async () => {
    const client = await start({ dispatchRunDetails: false });

    const answer = await dispatch(client, { return_run_details: true });

    expect(answer.status).toBe(204);
    expect(answer.data).toBe(""); // octokit's reading of an empty body
    expect(t.sim.store.repos.get("octocat/hello")?.runs).toHaveLength(1);
  });
});
