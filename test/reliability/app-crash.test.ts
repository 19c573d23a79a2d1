/**
 * The app killed mid-delivery (docs/reliability.md): GitHub never redelivers an event the app acknowledged, so
 * an app process killed (`kill -9`) right after its 2xx must not lose the
 * work. The app runs in its own process (the intake benchmark's target); the
 * simulator holds the app's first GitHub call for the delivery, the test sees
 * the acknowledgement and kills the process there. The reconciler (what a
 * restarted app runs on its timer, with an injected clock) then dispatches the
 * queued issue once — and a second kill, after the dispatch but before the
 * status comment, must not make it dispatch again. A run whose runner was lost
 * while the app was down leaves its issue in-progress; the reconciler fails it.
 *
 * A `/locus run` comment leaves no label behind for the reconciler, and GitHub
 * never resends a delivery by itself: the restarted app's
 * delivery sweeper asks GitHub to redeliver what it acknowledged just before it
 * started and what failed while it was down, and the same GUID keeps each event
 * acted on once. A command that only replies has no record but its reply, which
 * names the comment it answers: answered before a restart, it is not answered again.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forkPeer, type Peer } from "../../bench/webhook/ipc.ts";
import { SECRET, WEBHOOK_PATH, type SimReady, type TargetReady } from "../../bench/webhook/shared.ts";
import { reconcileRepository } from "../../lib/triggers/reconcile.ts";
import { loadConfig } from "../../lib/config/index.ts";
import { createActionOctokit, createGateway, type GitHubGateway } from "../../lib/github/index.ts";
import { repliedCommentId } from "../../lib/markers.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { startGitHubSimulator, type GitHubSimulator } from "../../sandbox/github-sim/index.ts";
import { NODE_WITH_COMPILE_CACHE } from "../node-with-compile-cache.ts";
import {
  createConformanceChecker,
  type ConformanceChecker,
} from "../sandbox/github-sim/openapi-conformance.ts";
import {
  simulatedRunName,
  startAppOnSimulator,
  type AppOnSimulator,
} from "../../sandbox/world/app-on-simulator.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

const TARGET = path.join(import.meta.dirname, "../../bench/webhook/target.ts");
const GRACE_MINUTES = 10;
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

let sim: GitHubSimulator;
/** The sweeper's calls to the delivery log must be ones GitHub's OpenAPI description accepts. */
let deliveryLogCalls: ConformanceChecker;
let app: Peer | undefined;
let gateway: GitHubGateway;
let installationId: number;
let restarted: AppOnSimulator | undefined;
/** The restarted app's clock: real time plus what a test skips ahead. */
let skippedMs = 0;

beforeEach(async () => {
  deliveryLogCalls = createConformanceChecker();
  sim = await startGitHubSimulator({
    webhooks: { secret: SECRET },
    runName: simulatedRunName,
    delay: () => Promise.resolve(),
    observe: (exchange) => {
      if (exchange.path.startsWith("/app/hook/")) deliveryLogCalls.observe(exchange);
    },
  });
  const repo = await sim.seed.repo("octo/demo", {
    files: { "README.md": "# demo\n", ...callerWorkflowFiles() },
  });
  repo.collaborator("alice", "write");
  repo.collaborator("eve", "read");
  const installation = sim.seed.installation("octo");
  gateway = createGateway({
    ownLogins: [sim.app.botLogin],
    octokit: createActionOctokit({
      token: mintInstallationToken(sim.store, installation.id).token,
      baseUrl: sim.apiUrl,
      log: quiet,
      minWriteIntervalMs: 0,
      retryUnitMs: 0,
      maxRetries: 0,
    }),
    repo: { owner: "octo", repo: "demo" },
    log: quiet,
  });
  installationId = installation.id;
}, 60_000);

/** The app in a process of its own, where the simulator's deliveries go. */
async function forkApp(): Promise<void> {
  const ready: SimReady = {
    apiUrl: sim.apiUrl,
    appId: sim.app.id,
    privateKey: sim.appPrivateKey ?? "",
    installationId,
  };
  // Each test kills its app, so each starts one: with the compile cache, a start compiles nothing again.
  const [, ...compileCache] = NODE_WITH_COMPILE_CACHE;
  const started = await forkPeer<TargetReady>(TARGET, ["app", JSON.stringify(ready)], compileCache);
  app = started.peer;
  sim.webhooks.url = started.ready.url;
}

afterEach(async () => {
  app?.child.kill("SIGKILL");
  app = undefined;
  await restarted?.close();
  restarted = undefined;
  await sim.close();
  deliveryLogCalls.assertClean();
});

/** The app's first GitHub call after the delivery is held; resolves when the app is there. */
function holdFirstCall(rule: { method?: string; path: string }): Promise<void> {
  return new Promise((onHang) => sim.faults.add({ kind: "hang", times: 1, onHang, ...rule }));
}

/**
 * Where an app that is down was listening: a port the system gave a server that has closed since,
 * as a killed app's port is, so each delivery fails as one to a down app does.
 */
async function urlWhereNothingListens(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}${WEBHOOK_PATH}`;
}

async function killApp(): Promise<void> {
  const child = app?.child;
  if (!child) throw new Error("the app is not running");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  expect(child.signalCode).toBe("SIGKILL");
}

async function reconcile(minutesLater: number) {
  const loaded = loadConfig(await gateway.getFileContent(".github/locus.yml"));
  if (!loaded.ok) throw new Error("invalid config");
  return reconcileRepository(
    {
      gateway,
      config: loaded.config,
      delivery: "reconcile",
      redeliveryRequested: () => false,
      defaultBranch: "main",
      log: quiet,
      selfLogins: [sim.app.botLogin],
      permissionOf: () => Promise.resolve("none"),
      now: () => new Date(Date.now() + minutesLater * 60_000),
    },
    GRACE_MINUTES,
  );
}

function dispatchesFor(issue: number): number {
  const repo = [...sim.store.repos.values()][0];
  return (repo?.runs ?? []).filter((run) => run.inputs["issue"] === String(issue)).length;
}

describe("kill -9 of the app after it acknowledged", () => {
  beforeEach(forkApp, 60_000);

  it("right after the 2xx: the reconciler dispatches the queued issue once", async () => {
    const alice = sim.as("alice");
    const issue = await gatewayAs(alice).createIssue({ title: "Do it", body: "Please." });
    await sim.webhooks.drain();
    const held = holdFirstCall({ method: "POST", path: "/app/installations/*/access_tokens" });
    await gatewayAs(alice).setLabels(issue.number, ["locus:queued"]);
    await held;
    await sim.webhooks.drain();
    const delivery = sim.webhooks.deliveries.at(-1);
    expect(delivery?.event).toBe("issues");
    expect(delivery?.status, "acknowledged").toBe(200);
    await killApp();
    expect(dispatchesFor(issue.number)).toBe(0);

    expect((await reconcile(0)).redispatched, "within the grace the app may still dispatch").toEqual([]);
    expect((await reconcile(GRACE_MINUTES + 1)).redispatched).toEqual([issue.number]);
    expect((await reconcile(3 * GRACE_MINUTES)).redispatched).toEqual([]);
    expect(dispatchesFor(issue.number)).toBe(1);
  });

  it("after the dispatch, before the status comment: no second dispatch", async () => {
    const alice = sim.as("alice");
    const issue = await gatewayAs(alice).createIssue({ title: "Do it", body: "Please." });
    await sim.webhooks.drain();
    const held = holdFirstCall({ method: "POST", path: `/repos/*/*/issues/${issue.number}/comments` });
    await gatewayAs(alice).setLabels(issue.number, ["locus:queued"]);
    await held;
    await sim.webhooks.drain();
    await killApp();
    expect(dispatchesFor(issue.number)).toBe(1);

    for (const minutes of [0, GRACE_MINUTES + 1, 3 * GRACE_MINUTES]) {
      expect((await reconcile(minutes)).redispatched).toEqual([]);
    }
    expect(dispatchesFor(issue.number)).toBe(1);
  });

  it("an Action killed mid-task while the app was down: the reconciler marks its issue failed, once", async () => {
    const alice = sim.as("alice");
    const issue = await gatewayAs(alice).createIssue({ title: "Do it", body: "Please." });
    await gatewayAs(alice).setLabels(issue.number, ["locus:queued"]);
    await sim.webhooks.drain();
    await app?.ask("drain");
    expect(dispatchesFor(issue.number)).toBe(1);
    await killApp();
    // The run starts, moves the labels, and its runner is lost: GitHub ends it as failed and
    // sends workflow_run.completed to an app that is not there.
    await gateway.setLabels(issue.number, ["locus:in-progress"]);
    const repo = [...sim.store.repos.values()][0];
    const run = repo?.runs.find((candidate) => candidate.inputs["issue"] === String(issue.number));
    if (!repo || !run) throw new Error("no dispatched run");
    await sim.runs.complete(repo, run.id, "failure");
    await sim.webhooks.drain();
    expect(sim.webhooks.deliveries.at(-1)?.error).not.toBeNull();

    expect((await reconcile(GRACE_MINUTES + 1)).markedFailed).toEqual([issue.number]);
    expect((await reconcile(2 * GRACE_MINUTES)).markedFailed).toEqual([]);
    const after = await gateway.getIssue(issue.number);
    expect(after?.labels).toContain("locus:failed");
    expect(after?.labels).not.toContain("locus:in-progress");
    expect(after?.comments.filter((c) => c.body.includes("ended with `failure`"))).toHaveLength(1);
  });
});

function gatewayAs(auth: string): GitHubGateway {
  return createGateway({
    ownLogins: [sim.app.botLogin],
    octokit: createActionOctokit({
      token: auth,
      baseUrl: sim.apiUrl,
      log: quiet,
      minWriteIntervalMs: 0,
      retryUnitMs: 0,
      maxRetries: 0,
    }),
    repo: { owner: "octo", repo: "demo" },
    log: quiet,
  });
}

/** The app started again in this process, with an injected clock; its deliveries come here now. */
async function restartApp(): Promise<AppOnSimulator> {
  skippedMs = 0;
  restarted = await startAppOnSimulator(sim, {
    secret: SECRET,
    log: pino({ level: "silent" }),
    app: { now: () => new Date(Date.now() + skippedMs) },
  });
  return restarted;
}

async function statusCommentsOn(issue: number): Promise<number> {
  const comments = await gateway.listIssueComments(issue);
  return comments.filter((comment) => comment.body.startsWith("<!-- locus:status -->")).length;
}

function redeliveries(): number {
  return sim.webhooks.deliveries.filter((delivery) => delivery.redelivery).length;
}

/** Locus's comments on an issue other than its status comment: its replies. */
async function repliesOn(issue: number): Promise<string[]> {
  const comments = await gateway.listIssueComments(issue);
  return comments
    .filter(
      (comment) => comment.author === sim.app.botLogin && !comment.body.startsWith("<!-- locus:status -->"),
    )
    .map((comment) => comment.body);
}

describe("the delivery sweeper recovers deliveries the app acknowledged before a kill -9", () => {
  beforeEach(forkApp, 60_000);

  it("kill -9 right after acknowledging `/locus run`: after restart, one run and one status comment", async () => {
    const alice = sim.as("alice");
    const issue = await gatewayAs(alice).createIssue({ title: "Do it", body: "Please." });
    await sim.webhooks.drain();
    const held = holdFirstCall({ method: "POST", path: "/app/installations/*/access_tokens" });
    await gatewayAs(alice).createComment(issue.number, "/locus run");
    await held;
    await sim.webhooks.drain();
    const comment = sim.webhooks.deliveries.at(-1);
    expect(comment?.event).toBe("issue_comment");
    expect(comment?.status, "acknowledged").toBe(200);
    await killApp();
    expect(dispatchesFor(issue.number)).toBe(0);

    const locus = (await restartApp()).locus;
    expect(await locus.sweepDeliveries()).toMatchObject({
      outcome: "swept",
      redelivered: [{ guid: comment?.id, reason: "acknowledged-before-start" }],
    });
    await restarted?.settle({ runs: false });
    expect(dispatchesFor(issue.number)).toBe(1);
    expect(await statusCommentsOn(issue.number)).toBe(1);
  });

  it("a redelivered `/locus run` whose work was done creates nothing twice", async () => {
    const alice = sim.as("alice");
    const issue = await gatewayAs(alice).createIssue({ title: "Do it", body: "Please." });
    await gatewayAs(alice).createComment(issue.number, "/locus run");
    await sim.webhooks.drain();
    await app?.ask("drain");
    expect(dispatchesFor(issue.number)).toBe(1);
    const before = (await gateway.listIssueComments(issue.number)).length;
    await killApp();

    const command = sim.webhooks.deliveries.find(
      (delivery) =>
        delivery.event === "issue_comment" &&
        (delivery.payload.sender as { login?: string }).login === "alice",
    );

    const locus = (await restartApp()).locus;
    expect(await locus.sweepDeliveries()).toMatchObject({
      outcome: "swept",
      redelivered: expect.arrayContaining([
        { deliveryId: command?.deliveryId, guid: command?.id, reason: "acknowledged-before-start" },
      ]) as unknown,
    });
    await restarted?.settle({ runs: false });
    const again = sim.webhooks.deliveries.filter(
      (delivery) => delivery.id === command?.id && delivery.redelivery,
    );
    expect(again.map((delivery) => delivery.status)).toEqual([200]);
    expect(dispatchesFor(issue.number)).toBe(1);
    expect((await gateway.listIssueComments(issue.number)).length).toBe(before);
  });

  it("`/locus help`, a refusal and a malformed command answered before a restart: one reply each after the sweep", async () => {
    const alice = gatewayAs(sim.as("alice"));
    const eve = gatewayAs(sim.as("eve"));
    const asked: Array<{ issue: number; comment: number }> = [];
    for (const text of ["/locus help", "/locus run", "/locus itterate"]) {
      const issue = await alice.createIssue({ title: text, body: "." });
      asked.push({ issue: issue.number, comment: (await eve.createComment(issue.number, text)).id });
    }
    await sim.webhooks.drain();
    await app?.ask("drain");
    for (const { issue, comment } of asked) {
      expect((await repliesOn(issue)).map(repliedCommentId), `#${issue}`).toEqual([comment]);
    }
    await killApp();
    const commands = sim.webhooks.deliveries.filter(
      (delivery) =>
        delivery.event === "issue_comment" && (delivery.payload.sender as { login?: string }).login === "eve",
    );
    expect(commands).toHaveLength(3);

    const locus = (await restartApp()).locus;
    const sweep = await locus.sweepDeliveries();
    expect(sweep.outcome === "swept" && sweep.redelivered.map((redelivery) => redelivery.guid)).toEqual(
      expect.arrayContaining(commands.map((command) => command.id)),
    );
    await restarted?.settle({ runs: false });
    const again = sim.webhooks.deliveries.filter(
      (delivery) => delivery.redelivery && commands.some((command) => command.id === delivery.id),
    );
    expect(again.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    for (const { issue, comment } of asked) {
      expect((await repliesOn(issue)).map(repliedCommentId), `#${issue}`).toEqual([comment]);
    }
  });

  it("`/locus help` acknowledged, then kill -9 before its reply: answered once after the sweep", async () => {
    const issue = await gatewayAs(sim.as("alice")).createIssue({ title: "Help", body: "." });
    await sim.webhooks.drain();
    const held = holdFirstCall({ method: "POST", path: "/app/installations/*/access_tokens" });
    const help = await gatewayAs(sim.as("eve")).createComment(issue.number, "/locus help");
    await held;
    await sim.webhooks.drain();
    const delivery = sim.webhooks.deliveries.at(-1);
    expect(delivery?.event).toBe("issue_comment");
    expect(delivery?.status, "acknowledged").toBe(200);
    await killApp();
    expect(await repliesOn(issue.number)).toEqual([]);

    const locus = (await restartApp()).locus;
    expect(await locus.sweepDeliveries()).toMatchObject({
      outcome: "swept",
      redelivered: [{ guid: delivery?.id, reason: "acknowledged-before-start" }],
    });
    await restarted?.settle({ runs: false });
    const replies = await repliesOn(issue.number);
    expect(replies.map(repliedCommentId)).toEqual([help.id]);
    expect(replies[0]).toContain("**Locus commands**");
  });
});

describe("the delivery sweeper recovers events sent while the app was down", () => {
  it("20 events while the app was down: after start each is processed once; a second sweep adds nothing", async () => {
    sim.webhooks.url = await urlWhereNothingListens();
    const alice = gatewayAs(sim.as("alice"));
    const issues: number[] = [];
    for (let n = 0; n < 20; n++)
      issues.push((await alice.createIssue({ title: `Task ${n}`, body: "." })).number);
    for (const [index, issue] of issues.entries()) {
      if (index % 2 === 0) await alice.setLabels(issue, ["locus:queued"]);
      else await alice.createComment(issue, "/locus run");
    }
    await sim.webhooks.drain();
    const failed = sim.webhooks.deliveries.filter((delivery) => delivery.error !== null);
    expect(failed).toHaveLength(40);
    expect(failed.filter((d) => d.event === "issue_comment" || d.action === "labeled")).toHaveLength(20);

    const locus = (await restartApp()).locus;
    const first = await locus.sweepDeliveries();
    expect(first).toMatchObject({ outcome: "swept", truncated: false });
    expect(first.outcome === "swept" && first.redelivered.every((r) => r.reason === "failed")).toBe(true);
    expect(redeliveries()).toBe(40);
    await restarted?.settle({ runs: false });
    for (const issue of issues) {
      expect(dispatchesFor(issue), `#${issue}`).toBe(1);
      expect(await statusCommentsOn(issue), `#${issue}`).toBe(1);
    }

    skippedMs = 11 * 60_000;
    expect(await locus.sweepDeliveries()).toMatchObject({ outcome: "swept", redelivered: [] });
    await restarted?.settle({ runs: false });
    expect(redeliveries()).toBe(40);
    expect(issues.map(dispatchesFor)).toEqual(issues.map(() => 1));
    expect([...deliveryLogCalls.operationsSeen].sort()).toEqual([
      "GET /app/hook/deliveries",
      "POST /app/hook/deliveries/{delivery_id}/attempts",
    ]);
  });
});
