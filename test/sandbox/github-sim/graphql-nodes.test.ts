import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeId } from "../../../sandbox/github-sim/serialize-user.ts";
import { startTestSim } from "./harness.ts";
import type { TestSim } from "./harness.ts";

const query = `
  query Nodes($ids: [ID!]!, $one: ID!) {
    nodes(ids: $ids) {
      __typename
      ... on Issue { number comments(last: 5) { nodes { body viewerDidAuthor } } }
    }
    node(id: $one) { ... on Issue { title } }
  }`;

describe("GraphQL node and nodes", () => {
  let t: TestSim;

  beforeEach(async () => {
    t = await startTestSim();
  });
  afterEach(() => t.close());

  it("resolve issues by global id, answering null and NOT_FOUND for an id that names nothing", async () => {
    const seeded = await t.sim.seed.repo("octocat/hello");
    const issue = await seeded.issue({ title: "Greet" });
    await seeded.comment(issue.number, "Hello.");
    const id = nodeId("I", issue.id);
    const missing = nodeId("I", 999_999);

    const response = await fetch(t.sim.graphqlUrl, {
      method: "POST",
      headers: { authorization: `bearer ${t.sim.as("octocat")}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables: { ids: [id, missing], one: id } }),
    });
    const result = (await response.json()) as {
      data: { nodes: unknown[]; node: unknown };
      errors?: { type?: string; path?: unknown[] }[];
    };

    expect(result.data.nodes).toEqual([
      {
        __typename: "Issue",
        number: issue.number,
        comments: { nodes: [{ body: "Hello.", viewerDidAuthor: true }] },
      },
      null,
    ]);
    expect(result.data.node).toEqual({ title: "Greet" });
    expect(result.errors).toEqual([expect.objectContaining({ type: "NOT_FOUND", path: ["nodes", 1] })]);
  });
});
