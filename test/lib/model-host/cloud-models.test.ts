/**
 * Models through the cloud account, no key, run in process by mode issue in a task world
 * (test/fakes/task-world.ts), with stand-ins for AWS STS and Bedrock, and for Google STS, IAM
 * Credentials and Vertex AI. The runner is built as action/run.ts builds it: the run trades its
 * GitHub OIDC token (from the simulator's issuer, which the stand-ins verify with each cloud's
 * audience; the simulator serves only that token and the run it names) for short-lived credentials
 * before the agent's first turn, and each credential joins the run's secret mask. The model calls
 * carry them; the agent's sandbox, the log and what Locus publishes hold none of them.
 */
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRunner } from "../../../action/create-agent-runner.ts";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { createRunSandbox } from "../../../lib/agent/run-sandbox.ts";
import { loadConfig, type LocusConfig } from "../../../lib/config/index.ts";
import { connectModelHost } from "../../../lib/model-host/connect-model-host.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { createSecretMask } from "../../../lib/secrets/secret-mask.ts";
import { renderJobSummary } from "../../../lib/task/job-summary.ts";
import { overallStatus } from "../../../lib/task/task-report.ts";
import { runnerIdToken, takeIdTokenRequest } from "../../../lib/token-exchange/id-token.ts";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import { startCloudHosts, type CloudHosts } from "../../../sandbox/anthropic-fake/cloud-hosts.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { callerWorkflowFiles } from "../../../sandbox/world/caller-workflow.ts";
import { startTaskWorld, WORLD_SECRETS, type TaskWorld } from "../../fakes/task-world.ts";
import { configForThisMachine } from "../../needs-bubblewrap.ts";
import { startTestSim, type TestSim } from "../../sandbox/github-sim/harness.ts";
import { simulatorGateway } from "../github/helpers.ts";
import type { GitHubGateway } from "../../../lib/github/index.ts";

const PROVIDER = "projects/123456789/locations/global/workloadIdentityPools/github/providers/acme";
const BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const VERTEX_MODEL = "claude-sonnet-4-5@20250929";

let w: TaskWorld;
let t: TestSim;
let cloud: CloudHosts;
/** The simulator's side: where the dispatched run lives whose job asks for OIDC tokens. */
let simulated: GitHubGateway;
let bedrock: LocusConfig;
let vertex: LocusConfig;

function configOf(lines: readonly string[]): LocusConfig {
  const loaded = loadConfig(configForThisMachine(lines.join("\n")));
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  return loaded.config;
}

beforeAll(async () => {
  w = await startTaskWorld();
  t = await startTestSim();
  await t.sim.seed.repo("acme/widgets", { files: callerWorkflowFiles() });
  simulated = simulatorGateway({
    apiUrl: t.sim.apiUrl,
    token: mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token,
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: [t.sim.app.botLogin],
  });
  cloud = await startCloudHosts({
    messagesUrl: w.anthropic.url,
    issuer: t.sim.oidc.issuer,
    workloadIdentityProvider: PROVIDER,
  });
  bedrock = configOf([
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
  ]);
  vertex = configOf([
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
  ]);
}, 60_000);

afterAll(async () => {
  await cloud?.close();
  await t?.close();
  await w?.close();
});

/**
 * Mode issue on a new task with `config`'s model host and no Anthropic key, the runner built as
 * action/run.ts builds it; `oidc` says whether the job may ask for OIDC tokens (`id-token: write`).
 */
async function runTask(title: string, config: LocusConfig, oidc: boolean) {
  const issue = await w.github.createIssue({ title, labels: ["locus:queued"] });
  const runnerEnv: Record<string, string | undefined> = {};
  if (oidc) {
    await simulated.dispatchWorkflow("locus.yml", "main", { mode: "issue", issue: String(issue.number) });
    const [created] = await simulated.listWorkflowRuns("locus.yml");
    const request = t.sim.oidc.requestCredentials(created?.id ?? 0);
    runnerEnv["ACTIONS_ID_TOKEN_REQUEST_URL"] = request.url;
    runnerEnv["ACTIONS_ID_TOKEN_REQUEST_TOKEN"] = request.token;
  }
  const idToken = runnerIdToken(takeIdTokenRequest(runnerEnv));
  const secrets: string[] = [WORLD_SECRETS.githubToken, WORLD_SECRETS.anthropicKey];
  let mask = createSecretMask(secrets);
  const keepSecret = (secret: string) => {
    secrets.push(secret);
    mask = createSecretMask(secrets);
  };
  const ctx = await w.context();
  const workspace = join(dirname(ctx.run.worktreeRoot), "workspace");
  const env = {
    PATH: process.env["PATH"],
    HOME: ctx.run.worktreeRoot,
    ANTHROPIC_BASE_URL: "http://127.0.0.1:9/not-used",
  };
  const sandbox: Sandbox = await createRunSandbox({
    mode: config.sandbox.mode,
    allow: config.sandbox.network.allow,
    workspace,
    provider: "builtin",
    env,
  });
  const connectCloud = async () => {
    const connection = await connectModelHost(config.agent, {
      idToken: async (audience) => {
        const token = await idToken(audience);
        keepSecret(token);
        return token;
      },
      sessionName: `locus-${w.github.repo.repo}-${ctx.run.id}`,
    });
    for (const secret of connection?.secrets ?? []) keepSecret(secret);
    return connection;
  };
  w.anthropic.setScript([
    reply(call("run_shell", { command: "env; cat ~/.aws/credentials 2>/dev/null; true" })),
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  const before = w.anthropic.requests.length;
  const logStart = w.log.lines.length;
  const result = await runIssueMode(
    {
      ...ctx,
      config,
      model: config.agent.model,
      runner: createAgentRunner("builtin", config, env, "", sandbox, connectCloud),
      mask: (text) => mask(text),
    },
    [issue.number],
  ).finally(() => sandbox.close());
  const requests = w.anthropic.requests.slice(before);
  const models = requests.map((request) => (request.body as { model?: string }).model);
  const pr = await w.github.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" });
  const comments = JSON.stringify(w.github.store.comments.filter((c) => c.issue === issue.number));
  const published = [
    // The log as printed: the runner's mask is not applied, so Locus must never print a credential.
    w.log.lines.slice(logStart).join("\n"),
    // The job summary as the Action writes it, through the run's mask.
    mask(renderJobSummary("issue", result)),
    pr?.body,
    comments,
  ];
  return { result, models, requests, published, comments };
}

describe("models through the cloud account, in process", { timeout: 60_000 }, () => {
  it("bedrock: assumes the role with the run's OIDC token and signs every model call with what STS issued", async () => {
    const { result, models, requests, published } = await runTask("Greet on Bedrock", bedrock, true);

    expect(overallStatus(result)).toBe("succeeded");
    expect(models).toEqual([BEDROCK_MODEL, BEDROCK_MODEL, BEDROCK_MODEL]);
    const [issued] = cloud.issued.aws;
    expect(issued).toBeDefined();
    expect(cloud.seen.bedrock).toEqual([issued?.accessKeyId, issued?.accessKeyId, issued?.accessKeyId]);
    // The Action's `cost-usd` output: the tasks' costs summed.
    expect(result.tasks.reduce((total, task) => total + task.costUsd, 0)).toBeGreaterThan(0);
    // What the agent's shell saw (its `env` and any AWS file), and everything Locus wrote, hold no credential.
    const seenByAgent = JSON.stringify(requests[1]?.body);
    expect(seenByAgent).toContain("PATH=");
    for (const secret of [issued?.secretAccessKey ?? "", issued?.sessionToken ?? ""]) {
      expect(seenByAgent).not.toContain(secret);
      for (const text of published) expect(text).not.toContain(secret);
    }
  });

  it("vertex: federates the OIDC token, acts as the service account and calls Vertex with its token", async () => {
    const { result, models, requests, published } = await runTask("Greet on Vertex", vertex, true);

    expect(overallStatus(result)).toBe("succeeded");
    expect(models).toEqual([VERTEX_MODEL, VERTEX_MODEL, VERTEX_MODEL]);
    const [token] = cloud.issued.google;
    expect(token).toMatch(/^ya29\.sa-/);
    expect(cloud.seen.vertex).toEqual([token, token, token]);
    const seenByAgent = JSON.stringify(requests[1]?.body);
    expect(seenByAgent).not.toContain(token);
    for (const text of published) expect(text).not.toContain(token);
  });

  it("says why and calls no model when the cloud refuses the run's token", async () => {
    // No ACTIONS_ID_TOKEN_REQUEST_*: the job lacks `id-token: write`.
    const { result, requests, comments } = await runTask("No OIDC for this run", bedrock, false);

    expect(requests).toEqual([]);
    expect(overallStatus(result)).toBe("failed");
    expect(comments).toContain("the run got no bedrock credentials");
    expect(comments).toContain("id-token: write");
  });
});
