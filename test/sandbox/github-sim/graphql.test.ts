import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { githubGraphqlSchema } from "../../../sandbox/github-sim/index.ts";
import { startTestSim } from "./harness.ts";
import type { TestSim } from "./harness.ts";

const milestoneQuery = `
  query MilestoneIssues($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      milestone(number: $number) {
        title description state number
        issues(first: 100, after: $after, states: [OPEN, CLOSED]) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { number title state body labels(first: 100) { nodes { name } } }
        }
      }
    }
    rateLimit { cost remaining resetAt }
  }`;

interface MilestonePage {
  data: {
    repository: {
      milestone: {
        title: string;
        state: string;
        issues: {
          totalCount: number;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          nodes: { number: number; state: string; labels: { nodes: { name: string }[] } }[];
        };
      };
    };
    rateLimit: { cost: number; remaining: number };
  };
}

describe("GraphQL endpoint", () => {
  let t: TestSim;
  let token: string;

  beforeEach(async () => {
    t = await startTestSim();
    token = t.sim.as("octocat");
  });
  afterEach(() => t.close());

  async function post(body: unknown, path = "/api/graphql"): Promise<Response> {
    return fetch(`${t.sim.url}${path}`, {
      method: "POST",
      headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  it("reads a 150-issue milestone in two pages of 100 and counts the requests by operation name", async () => {
    const repo = await t.sim.seed.repo("octocat/hello");
    repo.label("p:high");
    const milestone = await repo.milestone({ title: "Sprint 1", description: "locus: active" });
    for (let index = 1; index <= 150; index += 1) {
      await repo.issue({
        title: `Task ${index}`,
        milestone: milestone.number,
        labels: index % 2 === 0 ? ["p:high"] : [],
        state: index === 3 ? "closed" : "open",
      });
    }
    const variables = { owner: "octocat", name: "hello", number: milestone.number };
    const first = (await (await post({ query: milestoneQuery, variables })).json()) as MilestonePage;
    const page1 = first.data.repository.milestone.issues;
    expect(first.data.repository.milestone).toMatchObject({ title: "Sprint 1", state: "OPEN" });
    expect(page1.totalCount).toBe(150);
    expect(page1.nodes).toHaveLength(100);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    expect(page1.nodes[1]?.labels.nodes).toEqual([{ name: "p:high" }]);
    expect(page1.nodes[2]?.state).toBe("CLOSED");
    const second = (await (
      await post({ query: milestoneQuery, variables: { ...variables, after: page1.pageInfo.endCursor } })
    ).json()) as MilestonePage;
    const page2 = second.data.repository.milestone.issues;
    expect(page2.nodes.map((node) => node.number)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 101),
    );
    expect(page2.pageInfo.hasNextPage).toBe(false);
    expect(second.data.rateLimit.remaining).toBe(first.data.rateLimit.remaining - 1);
    expect(t.sim.requestLog.filter((entry) => entry.operationName === "MilestoneIssues")).toHaveLength(2);
  });

  it("answers invalid queries with 200 and errors[], as GitHub does", async () => {
    await t.sim.seed.repo("octocat/hello");
    const response = await post({
      query: 'query Broken { repository(owner: "octocat", name: "hello") { nonsense } }',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: unknown; errors: { message: string }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]?.message).toBe('Cannot query field "nonsense" on type "Repository".');
    const unpaginated = (await (
      await post(
        { query: '{ repository(owner: "octocat", name: "hello") { issues { totalCount } } }' },
        "/graphql",
      )
    ).json()) as { errors: { message: string }[] };
    expect(unpaginated.errors[0]?.message).toBe(
      "You must provide a `first` or `last` value to properly paginate the `issues` connection.",
    );
    const missing = (await (
      await post({ query: '{ repository(owner: "octocat", name: "nope") { name } }' })
    ).json()) as { errors: { type: string }[] };
    expect(missing.errors[0]?.type).toBe("NOT_FOUND");
  });

  it("carries graphql rate-limit headers and refuses unauthenticated requests", async () => {
    const response = await post({ query: "query Limits { rateLimit { remaining } }" });
    expect(response.headers.get("x-ratelimit-resource")).toBe("graphql");
    expect(response.headers.get("x-ratelimit-limit")).toBe("5000");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("4999");
    expect(response.headers.get("x-ratelimit-used")).toBe("1");
    const anonymous = await fetch(`${t.sim.url}/graphql`, {
      method: "POST",
      body: JSON.stringify({ query: "{ viewer { login } }" }),
    });
    expect(anonymous.status).toBe(401);
    console.log(
      `GitHub GraphQL schema built in ${Math.round(githubGraphqlSchema().loadMs)} ms (once per process)`,
    );
  });
});
