/**
 * The stale sweep through the token exchange: its scheduled run trades its
 * OIDC token for an agent token (labels, status comments), dispatches the
 * retry with the workflow's own GITHUB_TOKEN (the simulator's, with the
 * stale workflow's `permissions:`; exchanged tokens never carry `actions: write`),
 * and the retry — started by `github-actions[bot]`, not Locus — gets its
 * tokens because the delivery in its run name is the one the sweep recorded
 * in the issue's status comment. It ends in a pull request by Locus.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeEvent } from "../../app/token-route.ts";
import { renderStatusComment } from "../../lib/status/status-comment.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { installationFor } from "../../sandbox/github-sim/store.ts";
import { DEMO_ISSUES } from "../../sandbox/replay/transcripts.ts";
import { startWorld, type World } from "../../sandbox/world/start-world.ts";
import { sharedActionBundle } from "../action-bundle.ts";
import { worldSandboxMode } from "../needs-bubblewrap.ts";

// The identity of the sweep's own GITHUB_TOKEN.
const WORKFLOW_BOT = "github-actions[bot]";

let world: World;
const exchanges: ExchangeEvent[] = [];

beforeAll(async () => {
  world = await startWorld({
    anthropicApiKey: "",
    sandbox: worldSandboxMode,
    // The bundle the global setup built for this run: a world's own would be a second esbuild pass.
    bundle: sharedActionBundle(),
    onEvent: (event) => {
      if (event.type === "token-exchange") exchanges.push(event.event);
    },
  });
}, 60_000);

afterAll(async () => {
  await world.close();
});

describe("the stale sweep with the token exchange", () => {
  it("re-queues a failed task, whose retry gets its tokens and opens a PR as Locus", async () => {
    const repo = { owner: world.owner, repo: world.repo };
    world.sim.seed.installation(world.owner, { webhooks: true });
    await world.settle();
    const alice = world.as("alice");
    const { data: issue } = await alice.rest.issues.create({ ...repo, ...DEMO_ISSUES.capitalize });
    await alice.rest.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["locus:failed"] });
    const installation = installationFor(world.sim.store, world.owner);
    if (!installation) throw new Error("not installed");
    const asLocus = mintInstallationToken(world.sim.store, installation.id).token;
    await fetch(`${world.sim.apiUrl}/repos/${world.owner}/${world.repo}/issues/${issue.number}/comments`, {
      method: "POST",
      headers: { authorization: `token ${asLocus}`, "content-type": "application/json" },
      body: JSON.stringify({
        body: `<!-- locus:status -->\n${renderStatusComment({ headline: "Failed" }, { deliveries: [], attempts: 1 })}`,
      }),
    });
    await world.settle();

    await alice.rest.actions.createWorkflowDispatch({ ...repo, workflow_id: "locus-stale.yml", ref: "main" });
    await world.settle();

    const runs = world.sim.store.repos.get(`${world.owner}/${world.repo}`)?.runs ?? [];
    const retry = runs.find((run) => run.displayTitle.includes(`(stale-`));
    expect(retry?.actor).toBe(WORKFLOW_BOT);
    expect(retry?.conclusion).toBe("success");
    expect(exchanges.map((event) => [event.outcome, event.phase])).toEqual([
      ["granted", "agent"],
      ["granted", "agent"],
      ["granted", "publish"],
    ]);
    const pulls = await alice.rest.pulls.list(repo);
    expect(pulls.data.map((pull) => [pull.user?.login, pull.head.ref])).toEqual([
      [world.sim.app.botLogin, `locus/issue-${issue.number}`],
    ]);
  }, 120_000);
});
