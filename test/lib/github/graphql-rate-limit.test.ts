/**
 * A GraphQL query GitHub refuses for its points budget (200 with a
 * RATE_LIMITED error) is waited out like an exhausted REST limit: the gateway
 * waits for the reset and sends it once more, at most the policy's retries,
 * then fails with a message saying what ran out and when it comes back. On the
 * simulator's /api/graphql (as on Enterprise Server) the gateway does the
 * waiting; at github.com's /graphql plugin-throttling does, and the gateway
 * adds no retries of its own.
 */
import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { createActionOctokit, createGateway, GitHubError } from "../../../lib/github/index.ts";
import { startGitHubSimulator, type GitHubSimulator } from "../../../sandbox/github-sim/index.ts";
import { ACTIONS_BOT } from "../../../sandbox/github-sim/model.ts";
import { ensureUser } from "../../../sandbox/github-sim/store.ts";
import { API, recordingLog, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

let sim: GitHubSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

// 1 + 99 + 99·100 = 10,000 requests to fill: 100 points, a tenth of a GITHUB_TOKEN's hour.
const HUNDRED_POINTS = `query { repository(owner: "acme", name: "widgets") {
  issues(first: 99) { nodes { comments(first: 100) { nodes { reactions(first: 100) { totalCount } } } } }
} }`;

async function spentJobToken(): Promise<{ token: string; clock: { now: Date }; milestone: number }> {
  const clock = { now: new Date("2026-03-01T10:00:00Z") };
  sim = await startGitHubSimulator({ now: () => clock.now });
  const repo = await sim.seed.repo("acme/widgets");
  const milestone = await repo.milestone({ title: "Sprint" });
  await repo.issue({ title: "Task 1", milestone: milestone.number });
  ensureUser(sim.store, ACTIONS_BOT, "Bot");
  const token = "ghs_job_token";
  sim.store.tokens.set(token, {
    token,
    kind: "workflow",
    login: ACTIONS_BOT,
    installationId: null,
    expiresAt: null,
    permissions: { issues: "read", metadata: "read" },
    repository: "acme/widgets",
  });
  for (let i = 0; i < 10; i++) {
    const spent = await fetch(sim.graphqlUrl, {
      method: "POST",
      headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: HUNDRED_POINTS }),
    });
    expect(spent.status).toBe(200);
  }
  return { token, clock, milestone: milestone.number };
}

function gatewayOn(simulator: GitHubSimulator, token: string, clock: { now: Date }, passTime: boolean) {
  const log = recordingLog();
  const waits: number[] = [];
  const wait = (ms: number) => {
    waits.push(ms);
    if (passTime) clock.now = new Date(clock.now.getTime() + ms);
    return Promise.resolve();
  };
  const gateway = createGateway({
    octokit: createActionOctokit({
      token,
      baseUrl: simulator.apiUrl,
      log,
      minWriteIntervalMs: 0,
      retryUnitMs: 0,
      maxRetries: 2,
      wait,
    }),
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: ["locus[bot]"],
    log,
    rateLimit: { wait, now: () => clock.now.getTime() },
  });
  return { gateway, waits, log };
}

const graphqlRequests = (simulator: GitHubSimulator) =>
  simulator.requestLog.filter((entry) => entry.path.endsWith("/graphql")).length;

describe("a GraphQL query refused for the points budget", () => {
  it("waits for the reset on the simulator's clock, then reads", async () => {
    const { token, clock, milestone } = await spentJobToken();
    if (!sim) throw new Error("no simulator");
    const started = clock.now.getTime();
    const before = graphqlRequests(sim);
    const { gateway, waits, log } = gatewayOn(sim, token, clock, true);

    const issues = await gateway.listMilestoneIssues(milestone);

    expect(issues?.map((issue) => issue.title)).toEqual(["Task 1"]);
    // One refused, one after the reset: the hour from the first query, plus the tracker's second.
    expect(graphqlRequests(sim) - before).toBe(2);
    expect(waits).toEqual([started + 3600_000 - started + 1000]);
    expect(log.lines.some((line) => /pausing 3601 s until it resets/.test(line))).toBe(true);
  });

  it("fails clearly when the reset never comes, after the policy's retries and no more", async () => {
    const { token, clock, milestone } = await spentJobToken();
    if (!sim) throw new Error("no simulator");
    const before = graphqlRequests(sim);
    const { gateway } = gatewayOn(sim, token, clock, false);

    const error = await gateway.listMilestoneIssues(milestone).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GitHubError);
    expect((error as Error).message).toMatch(
      /GitHub's GraphQL rate limit \(1000 points an hour\) is exhausted for this token on MilestoneIssues: API rate limit exceeded .* It resets at 2026-03-01T11:00:00.000Z\. Retries were used up/,
    );
    expect(graphqlRequests(sim) - before).toBe(3);
  });

  it("at github.com, leaves the retries to plugin-throttling and adds none", async () => {
    const { gateway, wait } = testGateway({ maxRetries: 2 });
    const reset = Math.floor(Date.now() / 1000) + 60;
    const scope = nock(API)
      .post("/graphql")
      .times(3)
      .reply(
        200,
        { errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded for installation ID 7." }] },
        {
          "x-ratelimit-limit": "5000",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(reset),
          "x-ratelimit-resource": "graphql",
        },
      );

    const error = await gateway.listMilestoneIssues(1).catch((e: unknown) => e);

    expect(scope.isDone()).toBe(true);
    expect(wait).toHaveBeenCalledTimes(2);
    expect((error as Error).message).toMatch(
      /GraphQL rate limit \(5000 points an hour\) is exhausted .*installation ID 7\. It resets at/,
    );
  });
});
