/**
 * The gateway's dispatch asks GitHub for the run it starts
 * (`return_run_details`, docs/contracts.md "Dispatch") and hands it back; a
 * GitHub that answers 204 instead (older Enterprise Server) still dispatches,
 * and the run is then found by the delivery id in its name only after a 5xx.
 * Against the simulator over HTTP, both ways it can answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import type { GitHubSimulatorOptions } from "../../../sandbox/github-sim/index.ts";
import type { Repo } from "../../../sandbox/github-sim/model.ts";
import { createActionOctokit, createGateway, type GitHubGateway } from "../../../lib/github/index.ts";
import { startTestSim, type TestSim } from "../../sandbox/github-sim/harness.ts";
import { recordingLog } from "./helpers.ts";
import { callerWorkflowFiles } from "../../../sandbox/world/caller-workflow.ts";

const DISPATCHES = "/repos/acme/widgets/actions/workflows/locus.yml/dispatches";
const inputs = { mode: "issue", issue: "1", delivery: "d-7" };

let t: TestSim;
let repo: Repo;
afterEach(() => t.close());

async function start(options: GitHubSimulatorOptions = {}): Promise<GitHubGateway> {
  t = await startTestSim({
    runName: ({ inputs: given }) => `Locus issue (${given["delivery"]})`,
    ...options,
  });
  repo = (await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n", ...callerWorkflowFiles() } }))
    .repo;
  const token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  const log = recordingLog();
  return createGateway({
    ownLogins: [t.sim.app.botLogin],
    octokit: createActionOctokit({
      token,
      baseUrl: t.sim.apiUrl,
      log,
      retryUnitMs: 0,
      minWriteIntervalMs: 0,
    }),
    repo: { owner: "acme", repo: "widgets" },
    log,
  });
}

function dispatchRequests() {
  return t.sim.requestLog.filter((entry) => entry.method === "POST" && entry.path === DISPATCHES);
}

describe("the gateway's workflow dispatch", () => {
  it("asks for the run's details and returns the run GitHub started", async () => {
    const locus = await start();

    const run = await locus.dispatchWorkflow("locus.yml", "main", inputs);

    const [started] = repo.runs;
    expect(repo.runs).toHaveLength(1);
    expect(run).toEqual({ id: started?.id, url: `${t.sim.url}/acme/widgets/actions/runs/${started?.id}` });
    expect(dispatchRequests().map((entry) => entry.status)).toEqual([200]);
    const listed = await locus.listWorkflowRuns("locus.yml");
    expect(listed.map((candidate) => candidate.url)).toEqual([run?.url]);
  });

  it("on a GitHub that answers 204 dispatches all the same and returns no run", async () => {
    const locus = await start({ dispatchRunDetails: false });

    const run = await locus.dispatchWorkflow("locus.yml", "main", inputs);

    expect(run).toBeNull();
    expect(repo.runs).toHaveLength(1);
    expect(dispatchRequests().map((entry) => entry.status)).toEqual([204]);
  });

  it("on a GitHub that answers 204 finds the run by its name after a 502", async () => {
    const locus = await start({ dispatchRunDetails: false });
    t.sim.faults.add({
      method: "POST",
      path: DISPATCHES,
      kind: "status",
      status: 502,
      afterApply: true,
      times: 1,
    });

    const run = await locus.dispatchWorkflow("locus.yml", "main", inputs);

    const [started] = repo.runs;
    expect(repo.runs).toHaveLength(1);
    expect(run).toEqual({ id: started?.id, url: `${t.sim.url}/acme/widgets/actions/runs/${started?.id}` });
    expect(dispatchRequests().map((entry) => entry.status)).toEqual([502]);
  });

  it("on an Enterprise Server that refuses the key dispatches again without it and finds the run by name", async () => {
    const locus = await start({ dispatchRunDetails: "rejected" });

    const run = await locus.dispatchWorkflow("locus.yml", "main", inputs);

    const [started] = repo.runs;
    expect(repo.runs).toHaveLength(1);
    expect(run).toEqual({ id: started?.id, url: `${t.sim.url}/acme/widgets/actions/runs/${started?.id}` });
    expect(dispatchRequests().map((entry) => entry.status)).toEqual([422, 204]);
  });
});
