import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../../lib/app/app-context.ts";
import { reconcileRepository } from "../../../lib/triggers/reconcile.ts";
import { defaultConfig } from "../../../lib/config/index.ts";
import { runName, type Mode } from "../../../lib/dispatch/dispatch-inputs.ts";
import { createActionOctokit, createGateway, type Log } from "../../../lib/github/index.ts";
import {
  startGitHubSimulator,
  type GitHubSimulator,
  type RepoSeeder,
} from "../../../sandbox/github-sim/index.ts";
import { callerWorkflowFiles } from "../../../sandbox/world/caller-workflow.ts";

const quiet: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

let sim: GitHubSimulator;
let repo: RepoSeeder;
let clock = new Date("2026-11-24T12:00:00Z");

beforeAll(async () => {
  sim = await startGitHubSimulator({
    now: () => clock,
    runName: ({ inputs }) =>
      runName(
        inputs.mode as Mode,
        Number(inputs.milestone || inputs.issue) || undefined,
        inputs.delivery ?? "",
      ),
    runner: ({ inputs }) => ({ conclusion: inputs.delivery === "doomed" ? "failure" : "success" }),
  });
  repo = await sim.seed.repo("octo/demo", {
    files: { "README.md": "# demo\n", ...callerWorkflowFiles() },
  });
  repo.collaborator("locus-bot", "write");
});
afterAll(async () => {
  await sim.close();
});

function context(): AppContext {
  const octokit = createActionOctokit({
    token: sim.as("locus-bot"),
    baseUrl: sim.apiUrl,
    log: quiet,
    retryUnitMs: 0,
    minWriteIntervalMs: 0,
  });
  return {
    gateway: createGateway({
      ownLogins: ["locus-bot"],
      octokit,
      repo: { owner: "octo", repo: "demo" },
      log: quiet,
    }),
    config: defaultConfig(),
    delivery: "unused",
    redeliveryRequested: () => false,
    defaultBranch: "main",
    log: quiet,
    selfLogins: ["locus-bot"],
    permissionOf: () => Promise.resolve("write"),
    now: () => clock,
  };
}

const runsOf = (issue: number) =>
  sim.store.repos.get("octo/demo")?.runs.filter((run) => run.inputs.issue === String(issue)) ?? [];

describe("reconciler", () => {
  it("dispatches a queued standalone issue no run picked up, once, after the grace period", async () => {
    const issue = await repo.issue({ title: "lost", labels: ["locus:queued"] });
    expect((await reconcileRepository(context(), 10)).redispatched).toEqual([]);

    clock = new Date(clock.getTime() + 11 * 60_000);
    expect((await reconcileRepository(context(), 10)).redispatched).toEqual([issue.number]);
    await sim.settle();
    expect(runsOf(issue.number)).toHaveLength(1);
    expect(runsOf(issue.number)[0]?.inputs.delivery).toMatch(/^reconcile-\d+-\d+$/);

    clock = new Date(clock.getTime() + 60 * 60_000);
    expect((await reconcileRepository(context(), 10)).redispatched).toEqual([]);
    expect(runsOf(issue.number)).toHaveLength(1);
  });

  it("leaves a queued issue alone while its status comment is recent, and sprint issues to their sprint", async () => {
    const ctx = context();
    const fresh = await repo.issue({ title: "fresh", labels: ["locus:queued"] });
    await ctx.gateway.createComment(fresh.number, "<!-- locus:status -->\n**Locus:** Queued");
    const milestone = await repo.milestone({ title: "S" });
    const inSprint = await repo.issue({
      title: "sprint",
      labels: ["locus:queued"],
      milestone: milestone.number,
    });
    const report = await reconcileRepository(ctx, 10);
    expect(report.redispatched).not.toContain(fresh.number);
    expect(report.redispatched).not.toContain(inSprint.number);
  });

  it("dispatches the sprint of a queued milestone issue whose dispatch was lost, once, unless the sprint is stopped", async () => {
    const ctx = context();
    const milestone = await repo.milestone({ title: "Lost" });
    const lost = await repo.issue({
      title: "lost",
      labels: ["locus:queued", "order:1"],
      milestone: milestone.number,
    });
    const stopped = await repo.milestone({ title: "Stopped" });
    await repo.issue({ title: "asks", labels: ["locus:waiting", "order:1"], milestone: stopped.number });
    const behind = await repo.issue({
      title: "behind",
      labels: ["locus:queued", "order:2"],
      milestone: stopped.number,
    });
    const sprintRuns = (number: number) =>
      sim.store.repos.get("octo/demo")?.runs.filter((run) => run.inputs.milestone === String(number)) ?? [];

    clock = new Date(clock.getTime() + 11 * 60_000);
    const report = await reconcileRepository(ctx, 10);
    await sim.settle();

    expect(report.redispatched).toContain(lost.number);
    expect(report.redispatched).not.toContain(behind.number);
    expect(sprintRuns(milestone.number).map((run) => run.inputs.delivery)).toEqual([
      expect.stringMatching(/^reconcile-\d+-\d+$/),
    ]);
    expect(sprintRuns(stopped.number)).toHaveLength(0);

    clock = new Date(clock.getTime() + 60 * 60_000);
    expect((await reconcileRepository(ctx, 10)).redispatched).not.toContain(lost.number);
    expect(sprintRuns(milestone.number)).toHaveLength(1);
  });

  it("marks failed an in-progress issue whose run failed without saying so", async () => {
    const ctx = context();
    const issue = await repo.issue({ title: "crashed", labels: ["locus:in-progress", "agent:managed"] });
    await ctx.gateway.dispatchWorkflow("locus.yml", "main", {
      mode: "issue",
      issue: String(issue.number),
      delivery: "doomed",
    });
    await sim.settle();
    const report = await reconcileRepository(ctx, 10);
    expect(report.markedFailed).toEqual([issue.number]);
    const after = await ctx.gateway.getIssue(issue.number);
    expect(after?.labels).toEqual(["agent:managed", "locus:failed"]);
    expect(after?.comments.at(-1)?.body).toContain("ended with `failure`");
    expect((await reconcileRepository(ctx, 10)).markedFailed).toEqual([]);
  });
});
