/**
 * CI on the simulator: a workflow run on a pull request head with jobs,
 * steps and a log behind a redirect; another app's check suite with
 * annotations; the webhooks both send; and CI started once per new head.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CiJobSpec } from "../../../sandbox/github-sim/index.ts";
import { pushBranch, startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "octocat", repo: "hello" };
let t: TestSim;
afterEach(() => t.close());

const failingJob: CiJobSpec = {
  name: "test",
  steps: [
    { name: "actions/checkout@v4" },
    { name: "npm test", conclusion: "failure", output: ["# tests 3", "not ok 2 - greets", "# fail 1"] },
    { name: "upload", conclusion: "skipped" },
  ],
  annotations: [
    {
      path: "src/greet.js",
      startLine: 2,
      endLine: 2,
      level: "failure",
      title: "greets",
      message: "expected Hi",
    },
  ],
};

async function withPull(): Promise<{ client: Client; headSha: string }> {
  const seeded = await t.sim.seed.repo("octocat/hello", { files: { "a.txt": "one\n" } });
  const headSha = await pushBranch(seeded.gitDir, t.tempDir, "feature", { "a.txt": "two\n" });
  await seeded.pull({ title: "Feature", head: "feature" });
  return { client: t.client(t.sim.as("octocat")), headSha };
}

function deliveries(event: string) {
  return t.sim.webhooks.deliveries.filter((delivery) => delivery.event === event);
}

describe("a CI workflow run on a pull request head", () => {
  it("is announced by workflow_run and check_suite, and serves its jobs, steps and log", async () => {
    t = await startTestSim();
    const { client, headSha } = await withPull();
    const hello = t.sim.store.repos.get("octocat/hello");
    if (!hello) throw new Error("no repo");

    const run = await t.sim.ci.run(hello, { headBranch: "feature", jobs: [failingJob] });
    await t.sim.settle();

    const completed = deliveries("workflow_run").find((d) => d.action === "completed");
    const payload = completed?.payload.workflow_run as Record<string, unknown>;
    expect(payload).toMatchObject({
      id: run.id,
      conclusion: "failure",
      head_sha: headSha,
      event: "pull_request",
    });
    expect((payload.pull_requests as Array<{ number: number }>).map((pr) => pr.number)).toEqual([1]);
    const suite = deliveries("check_suite")[0]?.payload.check_suite as Record<string, unknown>;
    expect(suite).toMatchObject({ id: run.id, conclusion: "failure", head_sha: headSha });
    expect((suite.app as { slug: string }).slug).toBe("github-actions");

    const { data: jobs } = await client.rest.actions.listJobsForWorkflowRun({ ...repo, run_id: run.id });
    expect(jobs.total_count).toBe(1);
    const job = jobs.jobs[0];
    expect(job?.conclusion).toBe("failure");
    expect(job?.steps?.map((step) => [step.name, step.conclusion])).toEqual([
      ["actions/checkout@v4", "success"],
      ["npm test", "failure"],
      ["upload", "skipped"],
    ]);

    const redirect = await fetch(`${t.sim.apiUrl}/repos/octocat/hello/actions/jobs/${job?.id}/logs`, {
      headers: { authorization: `token ${t.sim.as("octocat")}` },
      redirect: "manual",
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("location") ?? "";
    expect(new URL(location).host).not.toBe(new URL(t.sim.apiUrl).host);
    const log = await (await fetch(location)).text();
    expect(log).toMatch(/Z ##\[group\]Run npm test\n/);
    expect(log).toMatch(
      /Z not ok 2 - greets\n.*Z # fail 1\n.*Z ##\[error\]Process completed with exit code 1\.\n/s,
    );
    expect(log).not.toContain("Run upload");
    expect((await fetch(`${location}x`)).status).toBe(403);

    const { data: annotations } = await client.rest.checks.listAnnotations({
      ...repo,
      check_run_id: job?.id ?? 0,
    });
    expect(annotations.map((a) => [a.path, a.start_line, a.message])).toContainEqual([
      "src/greet.js",
      2,
      "expected Hi",
    ]);
  });

  it("another app's check suite lists its check runs with output and annotations", async () => {
    t = await startTestSim();
    const { client, headSha } = await withPull();
    const hello = t.sim.store.repos.get("octocat/hello");
    if (!hello) throw new Error("no repo");

    const suite = await t.sim.ci.externalSuite(hello, {
      app: { slug: "buildkite" },
      headBranch: "feature",
      checkRuns: [
        { name: "lint", conclusion: "success" },
        {
          name: "unit",
          conclusion: "failure",
          output: { title: "1 failed", summary: "greet.test.js failed" },
          annotations: [
            { path: "a.txt", startLine: 1, endLine: 1, level: "failure", title: null, message: "bad" },
          ],
        },
      ],
    });
    await t.sim.settle();

    const event = deliveries("check_suite")[0]?.payload.check_suite as Record<string, unknown>;
    expect(event).toMatchObject({ id: suite.id, conclusion: "failure", head_sha: headSha });
    expect((event.app as { slug: string }).slug).toBe("buildkite");
    const { data: suites } = await client.rest.checks.listSuitesForRef({ ...repo, ref: headSha });
    expect(suites.check_suites.map((s) => s.id)).toEqual([suite.id]);
    const { data: runs } = await client.rest.checks.listForSuite({ ...repo, check_suite_id: suite.id });
    const unit = runs.check_runs.find((run) => run.name === "unit");
    expect(unit?.output).toMatchObject({
      title: "1 failed",
      summary: "greet.test.js failed",
      annotations_count: 1,
    });
    const { data: byRef } = await client.rest.checks.listForRef({
      ...repo,
      ref: "feature",
      filter: "latest",
    });
    expect(byRef.total_count).toBe(2);
  });

  it("with a CI executor, runs once on each new pull request head", async () => {
    const ran: string[] = [];
    t = await startTestSim({
      ci: {
        execute: ({ headSha }) => {
          ran.push(headSha);
          return Promise.resolve([{ name: "test", steps: [{ name: "npm test" }] }]);
        },
      },
    });
    const { headSha } = await withPull();
    await t.sim.ci.scan();
    await t.sim.ci.scan();
    await t.sim.settle();

    expect(ran).toEqual([headSha]);
    const runs = t.sim.store.repos.get("octocat/hello")?.runs ?? [];
    expect(runs.map((run) => [run.name, run.conclusion, run.headSha])).toEqual([["CI", "success", headSha]]);
  });
});
