/**
 * Models through the cloud account, no key: the bundled Action on the simulator, with stand-ins
 * for AWS STS and Bedrock, and for Google STS, IAM Credentials and Vertex AI. The run trades its
 * GitHub OIDC token (verified against the simulator's issuer, with each cloud's audience) for
 * short-lived credentials before the agent's first turn; the model calls carry them; the agent's
 * sandbox, the log and what Locus publishes hold none of them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCloudHosts, type CloudHosts } from "../../sandbox/anthropic-fake/cloud-hosts.ts";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";
import { configForThisMachine } from "../needs-bubblewrap.ts";

const PROVIDER = "projects/123456789/locations/global/workloadIdentityPools/github/providers/acme";
const BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const VERTEX_MODEL = "claude-sonnet-4-5@20250929";

let h: Harness;
let cloud: CloudHosts;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
  cloud = await startCloudHosts({
    messagesUrl: h.fake.url,
    issuer: h.sim.oidc.issuer,
    workloadIdentityProvider: PROVIDER,
  });
  const configs: Record<string, string> = {
    ".github/locus-bedrock.yml": [
      "version: 3",
      "agent:",
      `  model: ${BEDROCK_MODEL}`,
      "  modelHost: bedrock",
      "  bedrock:",
      "    region: us-east-1",
      "    roleArn: arn:aws:iam::123456789012:role/locus",
      `    endpoint: ${cloud.url}/bedrock`,
      `    stsEndpoint: ${cloud.url}/aws-sts`,
      "",
    ].join("\n"),
    ".github/locus-vertex.yml": [
      "version: 3",
      "agent:",
      `  model: ${VERTEX_MODEL}`,
      "  modelHost: vertex",
      "  vertex:",
      "    region: us-east5",
      "    projectId: acme-models",
      `    workloadIdentityProvider: ${PROVIDER}`,
      "    serviceAccount: locus@acme-models.iam.gserviceaccount.com",
      `    endpoint: ${cloud.url}/vertex`,
      `    stsEndpoint: ${cloud.url}/google-sts`,
      `    iamEndpoint: ${cloud.url}/iam`,
      "",
    ].join("\n"),
  };
  await h.git(["checkout", "--quiet", "-B", "cloud-config", "origin/main"]);
  for (const [path, text] of Object.entries(configs)) {
    await mkdir(join(h.scratch, ".github"), { recursive: true });
    await writeFile(join(h.scratch, path), configForThisMachine(text));
  }
  await h.git(["add", ".github"]);
  await h.git(["commit", "--quiet", "-m", "config: models through the cloud"]);
  await h.git(["push", "--quiet", "origin", "cloud-config:main"]);
}, 60_000);

afterAll(async () => {
  await cloud?.close();
  await h?.close();
});

/** A task run as a dispatched workflow run, whose job may ask the runner for OIDC tokens. */
async function runTask(title: string, configPath: string, model: string) {
  const issue = await h.api.createIssue({ title, labels: ["locus:queued"] });
  await h.api.dispatchWorkflow("locus.yml", "main", { mode: "issue", issue: String(issue.number) });
  const [created] = await h.api.listWorkflowRuns("locus.yml");
  const runId = created?.id ?? 0;
  const oidc = h.sim.oidc.requestCredentials(runId);
  h.fake.setScript([
    reply(call("run_shell", { command: "env; cat ~/.aws/credentials 2>/dev/null; true" })),
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  const before = h.fake.requests.length;
  const run = await h.run(
    { mode: "issue", issue: String(issue.number), "config-path": configPath, "anthropic-api-key": "", model },
    {
      GITHUB_RUN_ID: String(runId),
      ACTIONS_ID_TOKEN_REQUEST_URL: oidc.url,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: oidc.token,
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9/not-used",
    },
  );
  const requests = h.fake.requests.slice(before);
  const models = requests.map((request) => (request.body as { model?: string }).model);
  const pr = await h.api.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" });
  const comments = JSON.stringify(await h.api.listIssueComments(issue.number));
  const published = [
    run.stdout.replace(/^::add-mask::.*$/gm, ""),
    run.stderr,
    run.summary,
    pr?.body,
    comments,
  ];
  return { run, models, requests, published };
}

describe("models through the cloud account", () => {
  it("bedrock: assumes the role with the run's OIDC token and signs every model call with what STS issued", async () => {
    const { run, models, requests, published } = await runTask(
      "Greet on Bedrock",
      ".github/locus-bedrock.yml",
      BEDROCK_MODEL,
    );

    expect(run.outputs["status"]).toBe("succeeded");
    expect(models).toEqual([BEDROCK_MODEL, BEDROCK_MODEL, BEDROCK_MODEL]);
    const [issued] = cloud.issued.aws;
    expect(issued).toBeDefined();
    expect(cloud.seen.bedrock).toEqual([issued?.accessKeyId, issued?.accessKeyId, issued?.accessKeyId]);
    expect(Number(run.outputs["cost-usd"])).toBeGreaterThan(0);
    // What the agent's shell saw (its `env` and any AWS file), and everything Locus wrote, hold no credential.
    const seenByAgent = JSON.stringify(requests[1]?.body);
    expect(seenByAgent).toContain("PATH=");
    for (const secret of [issued?.secretAccessKey ?? "", issued?.sessionToken ?? ""]) {
      expect(seenByAgent).not.toContain(secret);
      for (const text of published) expect(text).not.toContain(secret);
    }
  });

  it("vertex: federates the OIDC token, acts as the service account and calls Vertex with its token", async () => {
    const { run, models, requests, published } = await runTask(
      "Greet on Vertex",
      ".github/locus-vertex.yml",
      VERTEX_MODEL,
    );

    expect(run.outputs["status"]).toBe("succeeded");
    expect(models).toEqual([VERTEX_MODEL, VERTEX_MODEL, VERTEX_MODEL]);
    const [token] = cloud.issued.google;
    expect(token).toMatch(/^ya29\.sa-/);
    expect(cloud.seen.vertex).toEqual([token, token, token]);
    const seenByAgent = JSON.stringify(requests[1]?.body);
    expect(seenByAgent).not.toContain(token);
    for (const text of published) expect(text).not.toContain(token);
  });

  it("says why and calls no model when the cloud refuses the run's token", async () => {
    const issue = await h.api.createIssue({ title: "No OIDC for this run", labels: ["locus:queued"] });
    const before = h.fake.requests.length;

    // No ACTIONS_ID_TOKEN_REQUEST_*: the job lacks `id-token: write`.
    const run = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "config-path": ".github/locus-bedrock.yml",
    });

    expect(h.fake.requests.length).toBe(before);
    expect(run.outputs["status"]).toBe("failed");
    const comments = JSON.stringify(await h.api.listIssueComments(issue.number));
    expect(comments).toContain("the run got no bedrock credentials");
    expect(comments).toContain("id-token: write");
  });
});
