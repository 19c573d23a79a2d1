import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunnerRequest } from "../../../sandbox/github-sim/index.ts";
import { appJwt, pushBranch, startTestSim } from "./harness.ts";
import { missingWebhookKeys } from "./webhook-shapes.ts";
import type { TestSim } from "./harness.ts";
import { callerWorkflowFiles } from "../../../sandbox/world/caller-workflow.ts";

interface Received {
  event: string;
  delivery: string;
  signatureValid: boolean;
  userAgent: string;
  payload: Record<string, unknown>;
}

const secret = "webhook-secret";

// A local receiver that checks X-Hub-Signature-256 the way the Probot app will.
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const expected = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      received.push({
        event: String(req.headers["x-github-event"]),
        delivery: String(req.headers["x-github-delivery"]),
        signatureValid: req.headers["x-hub-signature-256"] === expected,
        userAgent: String(req.headers["user-agent"]),
        payload: JSON.parse(body) as Record<string, unknown>,
      });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("end-to-end flow through the HTTP API", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let t: TestSim;
  const runnerCalls: RunnerRequest[] = [];

  beforeEach(async () => {
    receiver = await startReceiver();
    runnerCalls.length = 0;
    t = await startTestSim({
      app: { id: 4242, slug: "acme-locus" },
      webhooks: { url: receiver.url, secret },
      runner: (request) => {
        runnerCalls.push(request);
        return {
          conclusion: "success",
          displayTitle: `Locus ${request.inputs.mode ?? "?"} #${request.inputs.issue ?? "?"} (${request.inputs.delivery ?? "?"})`,
        };
      },
    });
  });

  afterEach(async () => {
    await t.close();
    await receiver.close();
  });

  it("runs app auth → labels → dispatch → push → PR → review → merge with webhooks", async () => {
    const { sim } = t;
    const seeded = await sim.seed.repo("octocat/hello", {
      files: { "src/greet.js": "export const greet = () => 'hi';\n", ...callerWorkflowFiles() },
    });
    seeded.collaborator("alice", "write");
    const issue = await seeded.issue({ title: "Add a farewell", body: "Please" });

    // App JWT → installation → installation token.
    const privateKey = sim.appPrivateKey ?? "";
    const appClient = t.client(appJwt(4242, privateKey));
    const installation = await appClient.rest.apps.getRepoInstallation({ owner: "octocat", repo: "hello" });
    const installations = await appClient.rest.apps.listInstallations();
    expect(installations.data.map((entry) => entry.id)).toEqual([installation.data.id]);
    const token = await appClient.rest.apps.createInstallationAccessToken({
      installation_id: installation.data.id,
    });
    expect(token.status).toBe(201);
    expect(token.data.token).toMatch(/^ghs_/);
    expect(Date.parse(token.data.expires_at)).toBeGreaterThan(Date.now());
    const bot = t.client(token.data.token);

    await bot.rest.issues.createLabel({
      owner: "octocat",
      repo: "hello",
      name: "locus:queued",
      color: "0e8a16",
    });
    await bot.rest.issues.createLabel({
      owner: "octocat",
      repo: "hello",
      name: "locus:in-progress",
      color: "1d76db",
    });

    // A human labels the issue: the webhook's sender is that human.
    const alice = t.client(sim.as("alice"));
    await alice.rest.issues.addLabels({
      owner: "octocat",
      repo: "hello",
      issue_number: issue.number,
      labels: ["locus:queued"],
    });
    await sim.webhooks.drain();
    const labeled = receiver.received.find(
      (hook) => hook.event === "issues" && hook.payload.action === "labeled",
    );
    expect(labeled?.signatureValid).toBe(true);
    expect(labeled?.userAgent).toMatch(/^GitHub-Hookshot\//);
    expect(labeled?.payload).toMatchObject({
      label: { name: "locus:queued" },
      sender: { login: "alice", type: "User" },
      installation: { id: installation.data.id },
      repository: { full_name: "octocat/hello" },
      issue: { number: issue.number },
    });
    expect(labeled?.payload).not.toHaveProperty("organization");

    // Workflow dispatch creates a run; the runner executes it and names it.
    const dispatched = await bot.rest.actions.createWorkflowDispatch({
      owner: "octocat",
      repo: "hello",
      workflow_id: "locus.yml",
      ref: "main",
      inputs: { mode: "issue", issue: String(issue.number), delivery: labeled?.delivery ?? "" },
    });
    expect(dispatched.status).toBe(204);
    await sim.settle();
    expect(runnerCalls).toHaveLength(1);
    expect(runnerCalls[0]?.inputs).toMatchObject({ mode: "issue", issue: String(issue.number) });
    const runs = await bot.rest.actions.listWorkflowRunsForRepo({ owner: "octocat", repo: "hello" });
    expect(runs.data.total_count).toBe(1);
    expect(runs.data.workflow_runs[0]).toMatchObject({
      status: "completed",
      conclusion: "success",
      event: "workflow_dispatch",
    });
    const runHooks = receiver.received.filter((hook) => hook.event === "workflow_run");
    expect(runHooks.map((hook) => hook.payload.action)).toEqual(["requested", "in_progress", "completed"]);
    expect(runHooks[2]?.payload.workflow_run).toMatchObject({
      display_title: `Locus issue #${issue.number} (${labeled?.delivery ?? ""})`,
      conclusion: "success",
    });

    // The "agent" pushes a branch with real git; the simulator sees it without being told.
    const branch = `locus/issue-${issue.number}`;
    const headSha = await pushBranch(seeded.gitDir, t.tempDir, branch, {
      "src/greet.js": "export const greet = () => 'hi';\nexport const bye = () => 'bye';\n",
    });
    const ref = await bot.rest.git.getRef({ owner: "octocat", repo: "hello", ref: `heads/${branch}` });
    expect(ref.data.object.sha).toBe(headSha);

    const pr = await bot.rest.pulls.create({
      owner: "octocat",
      repo: "hello",
      head: branch,
      base: "main",
      title: "Add bye",
      body: `Closes #${issue.number}`,
    });
    expect(pr.status).toBe(201);
    expect(pr.data.number).toBe(issue.number + 1);
    expect(pr.data.head.sha).toBe(headSha);

    const diff = await bot.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
      owner: "octocat",
      repo: "hello",
      pull_number: pr.data.number,
      mediaType: { format: "diff" },
    });
    expect(diff.data as unknown as string).toContain("+export const bye = () => 'bye';");
    const files = await bot.rest.pulls.listFiles({
      owner: "octocat",
      repo: "hello",
      pull_number: pr.data.number,
    });
    expect(files.data.map((file) => [file.filename, file.status, file.additions])).toEqual([
      ["src/greet.js", "modified", 1],
    ]);

    const review = await alice.rest.pulls.createReview({
      owner: "octocat",
      repo: "hello",
      pull_number: pr.data.number,
      event: "REQUEST_CHANGES",
      body: "Almost",
      comments: [{ path: "src/greet.js", line: 2, side: "RIGHT", body: "Say goodbye properly" }],
    });
    expect(review.data.state).toBe("CHANGES_REQUESTED");
    const reviewComments = await bot.rest.pulls.listReviewComments({
      owner: "octocat",
      repo: "hello",
      pull_number: pr.data.number,
    });
    expect(reviewComments.data[0]).toMatchObject({ path: "src/greet.js", line: 2, side: "RIGHT" });
    expect(reviewComments.data[0]?.diff_hunk).toMatch(/^@@ .*\n.*\n\+export const bye/);

    const merged = await alice.rest.pulls.merge({
      owner: "octocat",
      repo: "hello",
      pull_number: pr.data.number,
      merge_method: "squash",
    });
    expect(merged.data.merged).toBe(true);
    const main = await bot.rest.repos.getBranch({ owner: "octocat", repo: "hello", branch: "main" });
    expect(main.data.commit.sha).toBe(merged.data.sha);
    const after = await bot.rest.pulls.get({ owner: "octocat", repo: "hello", pull_number: pr.data.number });
    expect(after.data).toMatchObject({
      state: "closed",
      merged: true,
      merge_commit_sha: merged.data.sha,
      additions: 1,
      changed_files: 1,
    });
    expect(after.data.merged_at).not.toBeNull();

    await sim.webhooks.drain();
    const closed = receiver.received.find(
      (hook) => hook.event === "pull_request" && hook.payload.action === "closed",
    );
    expect(closed?.payload).toMatchObject({
      pull_request: { merged: true, number: pr.data.number },
      sender: { login: "alice" },
    });
    const submitted = receiver.received.find((hook) => hook.event === "pull_request_review");
    expect(submitted?.payload).toMatchObject({ action: "submitted", review: { state: "changes_requested" } });
    expect(receiver.received.every((hook) => hook.signatureValid)).toBe(true);
    expect(sim.webhooks.deliveries.every((delivery) => delivery.status === 202)).toBe(true);
    expect(sim.webhooks.deliveries.flatMap(missingWebhookKeys)).toEqual([]);
  });
});
