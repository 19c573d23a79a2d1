/**
 * A workflow dispatch answers as GitHub's `actions/create-workflow-dispatch`
 * does: 200 with the run's id and URLs when asked `return_run_details: true`,
 * 204 without a body otherwise, 204 whatever is asked on a GitHub that ignores
 * run details, and 422 on an Enterprise Server that refuses the key. It is
 * refused as GitHub refuses it: 404 for a workflow file the repository does
 * not have, 422 for a workflow without `workflow_dispatch`, for inputs the
 * workflow file at the ref does not declare, for more than 25 inputs or more
 * than 65,535 characters of them. Every exchange also passes the OpenAPI
 * conformance check when the simulator closes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Octokit } from "@octokit/core";
import { startGitHubSimulator, type GitHubSimulatorOptions } from "../../../sandbox/github-sim/index.ts";
import { startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };
const DISPATCH = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";

let t: TestSim;
afterEach(() => t.close());

const DISPATCHABLE = `name: Locus
on:
  workflow_dispatch:
    inputs:
      mode: { required: true, type: string }
      note: { type: string, default: "" }
`;

async function start(
  options: GitHubSimulatorOptions = {},
  workflows: Record<string, string> = { "locus.yml": DISPATCHABLE },
): Promise<Client> {
  t = await startTestSim(options);
  const files: Record<string, string> = { "a.txt": "one\n" };
  for (const [name, text] of Object.entries(workflows)) files[`.github/workflows/${name}`] = text;
  await t.sim.seed.repo("octocat/hello", { files });
  return t.client(t.sim.as("octocat"));
}

async function refusal(answer: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await answer;
  } catch (error) {
    const { status, response } = error as { status: number; response: { data: { message: string } } };
    return { status, message: response.data.message };
  }
  throw new Error("the dispatch was accepted");
}

async function dispatch(client: Pick<Client, "request">, extra: Record<string, unknown>) {
  return client.request(DISPATCH, {
    ...repo,
    workflow_id: "locus.yml",
    ref: "main",
    inputs: { mode: "issue" },
    ...extra,
  });
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

  it("on an Enterprise Server without run details refuses the key with 422 and starts nothing", async () => {
    const client = await start({ dispatchRunDetails: "rejected" });

    const refused = await refusal(dispatch(client, { return_run_details: true }));

    expect(refused.status).toBe(422);
    expect(refused.message).toContain('"return_run_details" is not a permitted key');
    expect(t.sim.store.repos.get("octocat/hello")?.runs).toHaveLength(0);
    expect((await dispatch(client, {})).status).toBe(204);
  });
});

describe("a workflow dispatch GitHub refuses", () => {
  it("names a workflow file the repository does not have: 404", async () => {
    const client = await start();

    const refused = await refusal(dispatch(client, { workflow_id: "missing.yml" }));

    expect(refused.status).toBe(404);
  });

  it("names a workflow without the workflow_dispatch trigger: 422", async () => {
    const client = await start({}, { "locus.yml": "name: Locus\non: push\njobs: {}\n" });

    const refused = await refusal(dispatch(client, {}));

    expect(refused).toEqual({ status: 422, message: "Workflow does not have 'workflow_dispatch' trigger" });
  });

  it("sends an input the workflow file at the ref does not declare: 422 naming it", async () => {
    const client = await start();

    const refused = await refusal(dispatch(client, { inputs: { mode: "issue", command: "hi" } }));

    expect(refused).toEqual({ status: 422, message: 'Unexpected inputs provided: ["command"]' });
    expect(t.sim.store.repos.get("octocat/hello")?.runs).toHaveLength(0);
  });

  it("leaves out a required input: 422", async () => {
    const client = await start();

    const refused = await refusal(dispatch(client, { inputs: { note: "x" } }));

    expect(refused).toEqual({ status: 422, message: "Required input 'mode' not provided" });
  });

  it("sends more than 65,535 characters of inputs: 422", async () => {
    const client = await start();

    const tooLong = await refusal(dispatch(client, { inputs: { mode: "issue", note: "x".repeat(65_536) } }));

    expect(tooLong.status).toBe(422);
    expect(tooLong.message).toContain("inputs are too large");
    expect(t.sim.store.repos.get("octocat/hello")?.runs).toHaveLength(0);
  });

  // GitHub's OpenAPI description itself caps `inputs` at 25 properties, so this request breaks the
  // contract on purpose: it goes to a simulator without the conformance check.
  it("sends more than 25 inputs: 422", async () => {
    await start();
    const sim = await startGitHubSimulator({ delay: () => Promise.resolve() });
    try {
      await sim.seed.repo("octocat/hello", { files: { ".github/workflows/locus.yml": DISPATCHABLE } });
      const client = new Octokit({ baseUrl: sim.apiUrl, auth: sim.as("octocat"), request: { retries: 0 } });
      const many = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`in${i}`, "x"]));

      const tooMany = await refusal(dispatch(client, { inputs: many }));

      expect(tooMany.status).toBe(422);
      expect(tooMany.message).toContain("up to 25 `inputs`");
    } finally {
      await sim.close();
    }
  });
});
