/**
 * The call counter records each GraphQL request's rate-limit points as GitHub
 * reports them (`rateLimit { cost }` asked alongside every query), here from
 * the simulator, which computes them with GitHub's published formula; the
 * answer the gateway reads is unchanged.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createActionOctokit, createGateway } from "../../../lib/github/index.ts";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import { requestCost } from "../../../sandbox/github-sim/graphql-endpoint.ts";
import { startGitHubSimulator, type GitHubSimulator } from "../../../sandbox/github-sim/index.ts";
import { withCostField } from "../../../lib/github/graphql-points.ts";
import { recordingLog } from "./helpers.ts";

let sim: GitHubSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("GraphQL points in the call counter", () => {
  it("are what GitHub charged each query, and the answers read as before", async () => {
    const bodies: unknown[] = [];
    sim = await startGitHubSimulator({
      observe: (exchange) => {
        if (exchange.graphql) bodies.push(exchange.requestBody);
      },
    });
    const repo = await sim.seed.repo("acme/widgets");
    const milestone = await repo.milestone({ title: "Sprint" });
    for (let i = 1; i <= 3; i++) await repo.issue({ title: `Task ${i}`, milestone: milestone.number });
    const installation = sim.seed.installation("acme");
    const log = recordingLog();
    const gateway = createGateway({
      octokit: createActionOctokit({
        token: mintInstallationToken(sim.store, installation.id).token,
        baseUrl: sim.apiUrl,
        log,
        minWriteIntervalMs: 0,
        retryUnitMs: 0,
        maxRetries: 0,
      }),
      repo: { owner: "acme", repo: "widgets" },
      ownLogins: ["locus[bot]"],
      log,
    });

    const issues = await gateway.listMilestoneIssues(milestone.number);
    const sprint = await gateway.readSprint(milestone.number, { managedLabel: "agent:managed" });

    expect(issues?.map((issue) => issue.title)).toEqual(["Task 1", "Task 2", "Task 3"]);
    expect(sprint.issues.map((issue) => issue.title)).toEqual(["Task 1", "Task 2", "Task 3"]);
    const [list = {}, wide = {}] = bodies;
    const snapshot = gateway.counter.snapshot();
    // The sprint read nests connections: GitHub charges it more than one point, and its sizes keep it
    // to a few dozen requests' worth (it cost 106 with 100 comments a thread asked for).
    expect(requestCost(wide)).toBeGreaterThan(1);
    expect(requestCost(wide)).toBeLessThanOrEqual(20);
    expect(snapshot.pointsByRoute).toEqual({
      "graphql query MilestoneIssues": requestCost(list),
      "graphql query SprintTasks": requestCost(wide),
    });
    expect(snapshot.graphqlPoints).toBe(requestCost(list) + requestCost(wide));
  });

  it("asks for the cost in named and anonymous queries alike, and leaves other documents alone", () => {
    expect(withCostField("query Q($n: Int!) { repository { id } }")).toBe(
      "query Q($n: Int!) { locusRateLimitCost: rateLimit { cost } repository { id } }",
    );
    expect(withCostField("query { viewer { login } }")).toContain(
      "{ locusRateLimitCost: rateLimit { cost } viewer",
    );
    expect(withCostField("mutation M { addComment { clientMutationId } }")).toBeUndefined();
  });
});
