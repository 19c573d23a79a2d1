/**
 * Installation tokens carry the app's grant as the manifest (`app.yml`) sets
 * it, can be narrowed when created but never widened, and every route and
 * GraphQL mutation Locus uses checks them the way GitHub does.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PROJECT_MANIFEST } from "../../../sandbox/github-sim/app-manifest.ts";
import type { RepoSeeder } from "../../../sandbox/github-sim/index.ts";
import { appJwt, startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "acme", repo: "widgets" };

let t: TestSim;
afterEach(() => t.close());

async function start(): Promise<{ app: Client; installationId: number; seeded: RepoSeeder }> {
  t = await startTestSim();
  const seeded = await t.sim.seed.repo("acme/widgets", {
    files: {
      "a.txt": "one\n",
      ".github/workflows/locus.yml": "name: Locus\non: workflow_dispatch\njobs: {}\n",
    },
  });
  const installationId = t.sim.seed.installation("acme").id;
  return { app: t.client(appJwt(t.sim.app.id, t.sim.appPrivateKey ?? "")), installationId, seeded };
}

async function tokenWith(app: Client, installationId: number, permissions?: Record<string, string>) {
  const { data } = await app.request("POST /app/installations/{installation_id}/access_tokens", {
    installation_id: installationId,
    ...(permissions ? { permissions } : {}),
  });
  return data as { token: string; permissions: Record<string, string> };
}

async function statusOf(request: Promise<unknown>): Promise<number> {
  try {
    await request;
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe("an installation's grant", () => {
  it("is the manifest's default_permissions, plus metadata", async () => {
    const { app, installationId } = await start();
    const manifest = parse(readFileSync(PROJECT_MANIFEST, "utf8")) as {
      default_permissions: Record<string, string>;
      default_events: string[];
    };

    const token = await tokenWith(app, installationId);
    const { data: self } = await app.request("GET /app");

    expect(token.permissions).toEqual({ metadata: "read", ...manifest.default_permissions });
    expect(self?.permissions).toEqual(token.permissions);
    expect(self?.events).toEqual(manifest.default_events);
  });

  it("never includes `workflows`, so no installation token can change workflow files", async () => {
    const { app, installationId } = await start();

    const status = await statusOf(tokenWith(app, installationId, { workflows: "write" }));

    expect(status).toBe(422);
  });

  it("refuses a token asking for more than granted, and narrows one asking for less", async () => {
    const { app, installationId } = await start();
    const widened = await tokenWith(app, installationId, { administration: "write" }).catch(
      (error: unknown) => error as { status: number; message: string },
    );
    expect(widened).toMatchObject({ status: 422 });
    expect((widened as { message: string }).message).toContain(
      "The permissions requested are not granted to this installation",
    );

    const narrow = await tokenWith(app, installationId, { issues: "read" });

    expect(narrow.permissions).toEqual({ metadata: "read", issues: "read" });
  });
});

describe("a narrowed token", () => {
  it("is refused labels and comments without issues: write, naming the permission", async () => {
    const { app, installationId, seeded } = await start();
    await seeded.issue({ title: "Task" });
    const reader = t.client((await tokenWith(app, installationId, { issues: "read" })).token);

    await expect(
      reader.rest.issues.createComment({ ...repo, issue_number: 1, body: "hi" }),
    ).rejects.toMatchObject({
      status: 403,
      response: {
        data: { message: "Resource not accessible by integration" },
        headers: { "x-accepted-github-permissions": "issues=write; pull_requests=write" },
      },
    });
    await expect(
      reader.rest.issues.setLabels({ ...repo, issue_number: 1, labels: ["x"] }),
    ).rejects.toMatchObject({
      status: 403,
    });
    expect((await reader.rest.issues.get({ ...repo, issue_number: 1 })).data.title).toBe("Task");
  });

  it("is refused a pull request without pull_requests: write and a dispatch without actions: write", async () => {
    const { app, installationId } = await start();
    const issuesOnly = t.client((await tokenWith(app, installationId, { issues: "write" })).token);

    expect(
      await statusOf(issuesOnly.rest.pulls.create({ ...repo, title: "x", head: "topic", base: "main" })),
    ).toBe(403);
    expect(
      await statusOf(
        issuesOnly.rest.actions.createWorkflowDispatch({ ...repo, workflow_id: "locus.yml", ref: "main" }),
      ),
    ).toBe(403);
    expect(await statusOf(issuesOnly.rest.actions.cancelWorkflowRun({ ...repo, run_id: 1 }))).toBe(403);
  });

  it("is refused a GraphQL mutation it lacks the permission for", async () => {
    const { app, installationId, seeded } = await start();
    const issue = await seeded.issue({ title: "Task" });
    const reader = t.client((await tokenWith(app, installationId, { issues: "read" })).token);
    const { data: json } = await reader.rest.issues.get({ ...repo, issue_number: issue.number });

    const answer = reader.graphql(
      'mutation($id: ID!) { addComment(input: { subjectId: $id, body: "hi" }) { clientMutationId } }',
      { id: json.node_id },
    );

    await expect(answer).rejects.toMatchObject({ errors: [{ type: "FORBIDDEN", path: ["addComment"] }] });
    expect(t.sim.store.repos.get("acme/widgets")?.comments).toHaveLength(0);
  });
});

describe("what GitHub would refuse", () => {
  it("is recorded for the tests: a refused permission with what it needed, and a route GitHub does not list", async () => {
    const { app, installationId, seeded } = await start();
    await seeded.issue({ title: "Task" });
    const reader = t.client((await tokenWith(app, installationId, { issues: "read" })).token);
    expect(t.sim.store.permissionViolations).toEqual([]);

    await statusOf(reader.rest.issues.createComment({ ...repo, issue_number: 1, body: "hi" }));
    // GET /user answers a person's token; GitHub's data lists it for no installation permission.
    const user = await reader.request("GET /user").catch((error: unknown) => error as { status: number });

    expect(user).toMatchObject({ status: 403 });
    expect(t.sim.store.permissionViolations).toEqual([
      {
        kind: "refused",
        route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
        login: t.sim.app.botLogin,
        needed: "issues=write; pull_requests=write",
      },
      { kind: "unlisted", route: "GET /user", login: t.sim.app.botLogin, needed: "" },
    ]);
  });

  it("leaves a workflow run's resource(url:) null with FORBIDDEN without actions: read, and resolves it with", async () => {
    const { app, installationId } = await start();
    const { token: full } = await tokenWith(app, installationId);
    await t.client(full).request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
      ...repo,
      workflow_id: "locus.yml",
      ref: "main",
      inputs: {},
    });
    const { data: runs } = await t.client(full).request("GET /repos/{owner}/{repo}/actions/runs", repo);
    const url = runs.workflow_runs[0]?.html_url;
    const query = `query($runUrl: URI!) { run: resource(url: $runUrl) { __typename ... on WorkflowRun { createdAt } } }`;
    const withoutActions = t.client((await tokenWith(app, installationId, { issues: "write" })).token);
    const withActions = t.client((await tokenWith(app, installationId, { actions: "read" })).token);

    await expect(withoutActions.graphql(query, { runUrl: url })).rejects.toMatchObject({
      errors: [{ type: "FORBIDDEN", path: ["run"], message: "Resource not accessible by integration" }],
      data: { run: null },
    });
    expect(t.sim.store.permissionViolations).toMatchObject([{ kind: "refused", needed: "actions=read" }]);
    await expect(withActions.graphql(query, { runUrl: url })).resolves.toMatchObject({
      run: { __typename: "WorkflowRun" },
    });
  });
});
