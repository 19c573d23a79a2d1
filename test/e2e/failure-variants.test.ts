/**
 * What goes wrong in production, on one sandbox world: GitHub redelivers a
 * webhook, GitHub answers 5xx for a while, a runner dies mid-task. Locus must
 * not run twice, must still finish, and must pick the lost work up again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { REPLAY_NOTICE, type Transcript } from "../../sandbox/replay/transcripts.ts";
import { reader, type Reader } from "../../sandbox/scenario/github-state.ts";
import { HUMAN, startWorld, type RestClient, type World } from "../../sandbox/world/start-world.ts";
import { sharedActionBundle } from "../action-bundle.ts";
import { worldSandboxMode } from "../needs-bubblewrap.ts";

/** A task that adds one module and finishes; `name` is also the issue title's key word. */
function addModule(name: string): Transcript {
  return {
    name,
    matches: (prompt) => new RegExp(`## Task: #\\d+ Add ${name}\\s`).test(prompt),
    attempts: [
      [
        reply(call("list_files", { path: "src" })),
        reply(
          call("write_file", { path: `src/${name}.js`, content: `export const ${name} = (text) => text;\n` }),
        ),
        reply(call("finish", { summary: `${REPLAY_NOTICE}\n\nAdded ${name}.` })),
      ],
    ],
  };
}

let world: World;
let human: RestClient;
let read: Reader;
let repo: { owner: string; repo: string };

beforeAll(async () => {
  world = await startWorld({
    anthropicApiKey: "",
    sandbox: worldSandboxMode,
    bundle: sharedActionBundle(),
    transcripts: ["pad", "repeat", "reverse"].map(addModule),
  });
  repo = { owner: world.owner, repo: world.repo };
  human = world.as(HUMAN);
  read = reader(world, human);
  world.sim.seed.installation(repo.owner, { webhooks: true });
  await world.settle();
}, 60_000);

afterAll(async () => {
  await world.close();
});

function runsFor(issue: number) {
  const runs = world.sim.store.repos.get(`${world.owner}/${world.repo}`)?.runs ?? [];
  return runs.filter((run) => run.displayTitle.startsWith(`Locus issue #${issue} `));
}

async function queuedIssue(title: string): Promise<number> {
  const { data } = await human.rest.issues.create({ ...repo, title, labels: ["locus:queued"] });
  return data.number;
}

describe("failure variants", () => {
  it("a redelivered webhook starts no second run", async () => {
    const issue = await queuedIssue("Add pad");
    await world.settle();
    expect(runsFor(issue)).toHaveLength(1);
    const labeled = world.sim.webhooks.deliveries.find(
      (delivery) =>
        delivery.event === "issues" &&
        delivery.action === "labeled" &&
        (delivery.payload as { issue?: { number?: number } }).issue?.number === issue,
    );
    if (!labeled) throw new Error("no labeled delivery");

    // GitHub's "Redeliver": the same body, signature and X-GitHub-Delivery.
    const response = await fetch(world.webhookUrl, {
      method: "POST",
      headers: labeled.headers,
      body: labeled.body,
    });
    await world.settle();

    expect(response.status).toBeLessThan(300);
    expect(runsFor(issue)).toHaveLength(1);
    expect((await read.issue(issue)).labels).toContain("locus:in-review");
    expect((await read.pullForBranch(`locus/issue-${issue}`))?.base).toBe("main");
  }, 60_000);

  it("GitHub 5xx bursts on the app's and the Action's calls: the work still completes", async () => {
    const faults = [
      world.sim.faults.add({
        kind: "status",
        status: 502,
        method: "PUT",
        path: "/repos/*/*/issues/*/labels",
        times: 2,
      }),
      world.sim.faults.add({
        kind: "status",
        status: 503,
        method: "GET",
        path: "/repos/*/*/issues/*",
        times: 3,
      }),
      world.sim.faults.add({
        kind: "status",
        status: 500,
        method: "PATCH",
        path: "/repos/*/*/issues/comments/*",
        times: 2,
      }),
      world.sim.faults.add({
        kind: "status",
        status: 502,
        method: "POST",
        path: "/repos/*/*/actions/workflows/*/dispatches",
        times: 1,
      }),
    ];
    const issue = await queuedIssue("Add repeat");
    await world.settle();

    expect(faults.map((fault) => fault.remaining)).toEqual([0, 0, 0, 0]);
    expect(runsFor(issue)).toHaveLength(1);
    expect((await read.issue(issue)).labels).toContain("locus:in-review");
    const pull = await read.pullForBranch(`locus/issue-${issue}`);
    expect(pull?.body).toContain(`Closes #${issue}`);
  }, 60_000);

  it("a runner that dies mid-task: the run fails, the stale sweep re-queues the issue and it completes", async () => {
    const issue = await queuedIssue("Add reverse");
    const replay = world.replay;
    if (!replay) throw new Error("the replay model is off");
    let killed = 0;
    // The runner dies while the agent waits for its second model turn.
    replay.onTurn("reverse", 1, () => {
      killed = world.runner.crash((inputs) => inputs["issue"] === String(issue));
    });
    await world.settle();

    expect(killed).toBe(1);
    expect(runsFor(issue).map((run) => run.conclusion)).toEqual(["failure"]);
    expect((await read.issue(issue)).labels).toContain("locus:failed");

    // The schedule would start the sweep; a person can too (workflow_dispatch).
    await human.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
      ...repo,
      workflow_id: "locus-stale.yml",
      ref: "main",
    });
    await world.settle();

    expect(runsFor(issue).map((run) => run.conclusion)).toEqual(["failure", "success"]);
    expect(runsFor(issue)[1]?.inputs["delivery"]).toMatch(/^stale-\d+-\d+$/);
    expect((await read.issue(issue)).labels).toContain("locus:in-review");
    expect(await read.log(`main..locus/issue-${issue}`)).toHaveLength(1);
  }, 90_000);
});
