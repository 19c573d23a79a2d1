/**
 * A workflow run's GITHUB_TOKEN on the simulator, held to GitHub's rules: the
 * job's `permissions:` read from the workflow file at the run's commit (the
 * repository's restricted default when absent, a called workflow never above
 * its caller), its own repository only, revoked when the job ends; no pull
 * request created or approved with it unless the repository allows it; and
 * no workflow started by what it pushes or opens.
 */
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { RunnerRequest } from "../../../sandbox/github-sim/index.ts";
import type { Repo, TokenRecord } from "../../../sandbox/github-sim/model.ts";
import { routePermission } from "../../../sandbox/github-sim/permission-table.ts";
import { allows } from "../../../sandbox/github-sim/token-permissions.ts";
import { calledWorkflows, readmeCallerWorkflow } from "../../../sandbox/world/caller-workflow.ts";
import { jobPermissions } from "../../../sandbox/github-sim/workflow-token.ts";
import { pushBranch, startTestSim, type TestSim } from "./harness.ts";

const exec = promisify(execFile);
const NOT_PERMITTED = "GitHub Actions is not permitted to create or approve pull requests.";

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function workflow(permissions: string): string {
  return `name: Work\non:\n  workflow_dispatch:\n${permissions}jobs:\n  work:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n`;
}

interface Call {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly accepted: string | null;
}

async function call(token: string, method: string, path: string, body?: unknown): Promise<Call> {
  const response = await fetch(`${t?.sim.apiUrl}${path}`, {
    method,
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    accepted: response.headers.get("x-accepted-github-permissions"),
  };
}

/** Starts a simulator whose runner plays one job: `job` runs with the run's token while it is live. */
async function withJob(
  files: Record<string, string>,
  job: (request: RunnerRequest) => Promise<void>,
  ci?: string[],
): Promise<{ repo: Repo; dispatch: () => Promise<void>; gitDir: string }> {
  t = await startTestSim({
    runner: async (request) => {
      await job(request);
      return { conclusion: "success" };
    },
    ...(ci
      ? {
          ci: {
            execute: ({ headSha }) => {
              ci.push(headSha);
              return Promise.resolve([{ name: "test", steps: [{ name: "npm test" }] }]);
            },
          },
        }
      : {}),
  });
  const seeded = await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n", ...files } });
  await t.sim.seed.repo("acme/other", { files: { "b.txt": "one\n" } });
  const repo = t.sim.store.repos.get("acme/widgets");
  if (!repo) throw new Error("no repo");
  const owner = t.sim.as("acme");
  return {
    repo,
    gitDir: seeded.gitDir,
    async dispatch() {
      const sent = await call(owner, "POST", "/repos/acme/widgets/actions/workflows/work.yml/dispatches", {
        ref: "main",
      });
      expect(sent.status).toBe(204);
      await t?.sim.settle();
    },
  };
}

/** The owner turns on "Allow GitHub Actions to create and approve pull requests", through the API. */
async function allowPullRequests(): Promise<void> {
  const set = await call(t?.sim.as("acme") ?? "", "PUT", "/repos/acme/widgets/actions/permissions/workflow", {
    can_approve_pull_request_reviews: true,
  });
  expect(set.status).toBe(204);
}

/** git over the simulator's smart HTTP with the token per command, as actions/checkout sends it. */
async function gitWith(token: string, cwd: string, args: string[]): Promise<string> {
  const origin = new URL(t?.sim.url ?? "");
  const { stdout } = await exec("git", args, {
    cwd,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: t?.tempDir ?? "",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "github-actions[bot]",
      GIT_AUTHOR_EMAIL: "github-actions[bot]@users.noreply.github.com",
      GIT_COMMITTER_NAME: "github-actions[bot]",
      GIT_COMMITTER_EMAIL: "github-actions[bot]@users.noreply.github.com",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: `http.${origin.protocol}//${origin.host}/.extraheader`,
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`,
    },
  });
  return stdout;
}

/** Clones with the token, commits a file on `branch` and pushes it; answers the new head. */
async function pushWith(token: string, branch: string, from: string, content: string): Promise<string> {
  const clone = await mkdtemp(join(t?.tempDir ?? "", "job-"));
  await gitWith(token, clone, ["clone", "--quiet", "--branch", from, `${t?.sim.url}/acme/widgets.git`, "."]);
  await gitWith(token, clone, ["checkout", "--quiet", "-B", branch]);
  await writeFile(join(clone, "a.txt"), content);
  await gitWith(token, clone, ["commit", "--quiet", "-am", "job change"]);
  await gitWith(token, clone, ["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
  return (await gitWith(token, clone, ["rev-parse", "HEAD"])).trim();
}

describe("a job's GITHUB_TOKEN", () => {
  it("carries the workflow's permissions block, reaches only its repository and dies with the job", async () => {
    const seen: Call[] = [];
    let token = "";
    const { dispatch } = await withJob(
      {
        ".github/workflows/work.yml": workflow("permissions:\n  contents: read\n  issues: write\n"),
      },
      async (request) => {
        token = request.githubToken;
        seen.push(await call(token, "GET", "/repos/acme/widgets/contents/a.txt"));
        seen.push(await call(token, "POST", "/repos/acme/widgets/issues", { title: "From a job" }));
        seen.push(await call(token, "GET", "/repos/acme/widgets/actions/runs"));
        seen.push(await call(token, "GET", "/repos/acme/other/contents/b.txt"));
      },
    );

    await dispatch();

    expect(seen.map((c) => c.status)).toEqual([200, 201, 403, 404]);
    expect((seen[1]?.body.user as { login: string }).login).toBe("github-actions[bot]");
    expect(seen[2]?.accepted).toBe("actions=read");
    expect((await call(token, "GET", "/repos/acme/widgets/contents/a.txt")).status).toBe(401);
  });

  it("without a permissions block gets the repository's default: restricted (contents read) unless set permissive", async () => {
    const statuses: number[] = [];
    const { dispatch } = await withJob({ ".github/workflows/work.yml": workflow("") }, async (request) => {
      statuses.push(
        (await call(request.githubToken, "POST", "/repos/acme/widgets/issues", { title: "x" })).status,
      );
    });
    const owner = t?.sim.as("acme") ?? "";

    await dispatch();
    const read = await call(owner, "GET", "/repos/acme/widgets/actions/permissions/workflow");
    const set = await call(owner, "PUT", "/repos/acme/widgets/actions/permissions/workflow", {
      default_workflow_permissions: "write",
    });
    await dispatch();

    expect(read.body).toEqual({
      default_workflow_permissions: "read",
      can_approve_pull_request_reviews: false,
    });
    expect(set.status).toBe(204);
    expect(statuses).toEqual([403, 201]);
  });

  it("cannot create or approve a pull request unless the repository allows GitHub Actions to", async () => {
    const answers: Call[] = [];
    const { dispatch } = await withJob(
      {
        ".github/workflows/work.yml": workflow("permissions:\n  contents: write\n  pull-requests: write\n"),
      },
      async (request) => {
        const token = request.githubToken;
        await pushWith(token, `job-${request.runId}`, "main", `run ${request.runId}\n`);
        answers.push(
          await call(token, "POST", "/repos/acme/widgets/pulls", {
            title: "From a job",
            head: `job-${request.runId}`,
            base: "main",
          }),
        );
      },
    );

    await dispatch();
    await allowPullRequests();
    await dispatch();

    expect(answers.map((a) => [a.status, a.body.message])).toEqual([
      [403, NOT_PERMITTED],
      [201, undefined],
    ]);
  });

  it("refuses an approving review where the repository does not allow it, and takes a comment review", async () => {
    const answers: number[] = [];
    const { dispatch, gitDir } = await withJob(
      { ".github/workflows/work.yml": workflow("permissions:\n  pull-requests: write\n") },
      async (request) => {
        for (const event of ["APPROVE", "COMMENT"]) {
          const review = { event, body: "looked" };
          answers.push(
            (await call(request.githubToken, "POST", "/repos/acme/widgets/pulls/1/reviews", review)).status,
          );
        }
      },
    );
    await pushBranch(gitDir, t?.tempDir ?? "", "feature", { "a.txt": "two\n" });
    await call(t?.sim.as("acme") ?? "", "POST", "/repos/acme/widgets/pulls", {
      title: "F",
      head: "feature",
      base: "main",
    });

    await dispatch();

    expect(answers).toEqual([403, 200]);
  });

  it("starts no workflow with what it opens or pushes; a person's push does", async () => {
    const ci: string[] = [];
    const heads: Record<string, string> = {};
    let round = 0;
    const { dispatch, gitDir } = await withJob(
      {
        ".github/workflows/work.yml": workflow("permissions:\n  contents: write\n  pull-requests: write\n"),
      },
      async (request) => {
        const token = request.githubToken;
        round += 1;
        if (round === 1) {
          heads["job"] = await pushWith(token, "job", "main", "job\n");
          await call(token, "POST", "/repos/acme/widgets/pulls", { title: "Job", head: "job", base: "main" });
        } else {
          heads["pushed"] = await pushWith(token, "feature", "feature", "job push\n");
        }
      },
      ci,
    );
    await allowPullRequests();
    heads["person"] = await pushBranch(gitDir, t?.tempDir ?? "", "feature", { "a.txt": "two\n" });
    await call(t?.sim.as("acme") ?? "", "POST", "/repos/acme/widgets/pulls", {
      title: "F",
      head: "feature",
      base: "main",
    });
    await t?.sim.settle();

    await dispatch();
    await dispatch();
    await t?.sim.ci.scan();
    const pulls = t?.sim.store.repos.get("acme/widgets")?.issues;
    heads["again"] = await pushWith(t?.sim.as("acme") ?? "", "feature", "feature", "person again\n");
    await t?.sim.ci.scan();
    await t?.sim.settle();

    expect([...(pulls?.values() ?? [])].map((pull) => [pull.number, pull.author])).toEqual([
      [1, "acme"],
      [2, "github-actions[bot]"],
    ]);
    expect(heads["pushed"]).not.toBe(heads["person"]);
    expect(ci).toEqual([heads["person"], heads["again"]]);
  });
});

describe("the permissions a job's token gets", () => {
  const repo = { owner: "acme", name: "widgets" } as Repo;
  const reusable = `on:\n  workflow_call:\npermissions:\n  contents: write\n  issues: write\n  id-token: write\njobs:\n  work:\n    runs-on: ubuntu-latest\n    steps: []\n`;
  const caller = (permissions: string) =>
    `on: workflow_dispatch\n${permissions}jobs:\n  call:\n    uses: acme/tools/.github/workflows/work.yml@v1\n`;

  it("read-all, write-all and {} set every scope; a listed block leaves the others none", () => {
    expect(jobPermissions(repo, workflow("permissions: read-all\n"), {})).toMatchObject({
      contents: "read",
      actions: "read",
      pull_requests: "read",
    });
    expect(jobPermissions(repo, workflow("permissions: write-all\n"), {})).toMatchObject({ issues: "write" });
    expect(jobPermissions(repo, workflow("permissions: {}\n"), {})).toEqual({ metadata: "read" });
    expect(
      jobPermissions(repo, workflow("permissions:\n  pull-requests: write\n  id-token: write\n"), {}),
    ).toEqual({
      metadata: "read",
      pull_requests: "write",
    });
  });

  it("a called workflow keeps its own permissions only as far as its caller's job has them", () => {
    const called = { "acme/tools/.github/workflows/work.yml": reusable };
    expect(
      jobPermissions(repo, caller("permissions:\n  contents: read\n  id-token: write\n"), called),
    ).toEqual({
      metadata: "read",
      contents: "read",
    });
    expect(jobPermissions(repo, caller("permissions: write-all\n"), called)).toEqual({
      metadata: "read",
      contents: "write",
      issues: "write",
    });
  });
});

describe("the README's caller workflow", () => {
  it("gives its job a token that reads the CI runs and job logs fix-ci needs (exchanged tokens never carry actions: write)", () => {
    const repo = { owner: "acme", name: "widgets" } as Repo;
    const token = {
      kind: "workflow",
      permissions: jobPermissions(repo, readmeCallerWorkflow(), calledWorkflows()),
    } as TokenRecord;

    for (const route of [
      "/repos/{owner}/{repo}/actions/runs/{run_id}",
      "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs",
      "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
    ]) {
      const permission = routePermission("GET", route);
      expect(permission.kind === "listed" && allows(token, permission.needed), route).toBe(true);
    }
    expect(token.permissions).not.toHaveProperty("pull_requests");
  });
});
