/**
 * GraphQL requests are charged by GitHub's published formula (requests to
 * fill every connection at its `first`/`last` limit, divided by 100, rounded,
 * at least 1), both in `rateLimit { cost }` and against the token's points.
 */
import { parse } from "graphql";
import { afterEach, describe, expect, it } from "vitest";
import { graphqlCost } from "../../../sandbox/github-sim/graphql-cost.ts";
import { startTestSim, type TestSim } from "./harness.ts";

describe("GitHub's GraphQL cost formula", () => {
  it("counts each connection once per item of its parents, divided by 100", () => {
    // GitHub's own example: 1 + 100 + 100·50 = 5,101 requests → 51 points.
    const example = parse(`query {
      viewer { repositories(first: 100) { nodes { issues(first: 50) { nodes { labels(first: 60) { nodes { name } } } } } } }
    }`);
    expect(graphqlCost(example)).toBe(Math.round((1 + 100 + 100 * 50) / 100));
    expect(graphqlCost(parse("query { viewer { login } }"))).toBe(1);
    expect(
      graphqlCost(parse("query($n: Int!) { viewer { repositories(first: $n) { nodes { name } } } }"), {
        n: 10,
      }),
    ).toBe(1);
  });

  it("follows fragments and variables", () => {
    const document = parse(`
      query Q($n: Int!) { repository(owner: "o", name: "r") { issues(first: $n) { nodes { ...I } } } }
      fragment I on Issue { comments(last: 100) { nodes { body } } }`);
    expect(graphqlCost(document, { n: 100 })).toBe(Math.round((1 + 100) / 100));
    expect(graphqlCost(document, { n: 1000 })).toBe(Math.round((1 + 1000) / 100));
  });
});

describe("the simulator's GraphQL endpoint", () => {
  let t: TestSim;
  afterEach(() => t.close());

  it("charges the formula's cost against the token's points", async () => {
    t = await startTestSim();
    await t.sim.seed.repo("octocat/hello");
    const token = t.sim.as("octocat");
    const query = `query { repository(owner: "octocat", name: "hello") {
      issues(first: 100) { nodes { comments(first: 100) { nodes { reactions(first: 100) { totalCount } } } } }
    } rateLimit { cost used } }`;

    const answer = await fetch(`${t.sim.url}/graphql`, {
      method: "POST",
      headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const json = (await answer.json()) as { data: { rateLimit: { cost: number } } };

    const cost = Math.round((1 + 100 + 100 * 100) / 100);
    expect(json.data.rateLimit.cost).toBe(cost);
    expect(answer.headers.get("x-ratelimit-used")).toBe(String(cost));
  });
});
