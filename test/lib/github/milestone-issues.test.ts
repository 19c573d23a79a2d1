import nock from "nock";
import { describe, expect, it } from "vitest";
import { API, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

type GraphqlBody = { query: string; variables: Record<string, unknown> };

function node(n: number) {
  return {
    number: n,
    title: `Task ${n}`,
    body: `Do ${n}`,
    state: n % 2 === 0 ? "CLOSED" : "OPEN",
    labels: { nodes: [{ name: `order:${n}` }, { name: "agent:managed" }] },
  };
}

function page(numbers: number[], endCursor: string | null, hasNextPage: boolean) {
  return {
    data: {
      repository: {
        milestone: { issues: { pageInfo: { hasNextPage, endCursor }, nodes: numbers.map(node) } },
      },
    },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("listMilestoneIssues", () => {
  it("reads 150 issues in exactly two GraphQL requests, following the cursor", async () => {
    const { gateway } = testGateway();
    const bodies: GraphqlBody[] = [];
    nock(API)
      .post("/graphql", (b: GraphqlBody) => bodies.push(b) > 0 && b.variables["after"] === null)
      .reply(200, page(range(1, 100), "CUR100", true))
      .post("/graphql", (b: GraphqlBody) => bodies.push(b) > 0 && b.variables["after"] === "CUR100")
      .reply(200, page(range(101, 150), "CUR150", false));

    const issues = await gateway.listMilestoneIssues(4);

    expect(issues).toHaveLength(150);
    expect(issues?.[0]).toEqual({
      number: 1,
      title: "Task 1",
      body: "Do 1",
      state: "open",
      labels: ["order:1", "agent:managed"],
    });
    expect(issues?.[149]?.state).toBe("closed");
    expect(bodies.map((b) => b.variables)).toEqual([
      { owner: "acme", name: "widgets", milestone: 4, after: null },
      { owner: "acme", name: "widgets", milestone: 4, after: "CUR100" },
    ]);
    expect(gateway.counter.snapshot().byRoute).toEqual({ "graphql query MilestoneIssues": 2 });
  });

  it("reads 50 issues in exactly one GraphQL request", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post("/graphql")
      .once()
      .reply(200, page(range(1, 50), "CUR50", false));

    const issues = await gateway.listMilestoneIssues(4);

    expect(issues?.map((i) => i.number)).toEqual(range(1, 50));
    expect(gateway.counter.snapshot()).toMatchObject({ total: 1, reads: 1, writes: 0 });
  });

  it("brings the issues' and Locus's labels' ids, so their label sets go in one GraphQL write", async () => {
    const { gateway } = testGateway();
    const bodies: GraphqlBody[] = [];
    const labelled = (n: number) => ({
      ...node(n),
      id: `I_${n}`,
      labels: { nodes: [{ id: "LA_bug", name: "bug" }] },
    });
    nock(API)
      .post("/graphql")
      .reply(200, {
        data: {
          repository: {
            statusLabels: { nodes: [{ id: "LA_queued", name: "locus:queued" }] },
            managedLabel: { id: "LA_managed", name: "agent:managed" },
            orderLabels: { nodes: [{ id: "LA_order1", name: "order:1" }] },
            milestone: {
              issues: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [1, 3].map(labelled) },
            },
          },
        },
      })
      .post("/graphql", (b: GraphqlBody) => bodies.push(b) > 0)
      .reply(200, {
        data: {
          w0: { issue: { labels: { nodes: [] } } },
          w1: { issue: { labels: { nodes: [] } } },
        },
      });

    const issues = (await gateway.listMilestoneIssues(4)) ?? [];
    expect(issues.map((i) => i.nodeId)).toEqual(["I_1", "I_3"]);
    const labels = ["bug", "order:1", "locus:queued", "agent:managed"];
    await gateway.writeMoment(
      issues.map((i) => ({ kind: "labels", number: i.number, nodeId: i.nodeId, pullRequest: false, labels })),
    );

    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.variables).toMatchObject({
      subject0: "I_1",
      labels0: ["LA_bug", "LA_order1", "LA_queued", "LA_managed"],
      subject1: "I_3",
    });
  });

  it("answers null for a milestone that does not exist", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post("/graphql")
      .reply(200, { data: { repository: { milestone: null } } });

    expect(await gateway.listMilestoneIssues(99)).toBeNull();
  });

  it("turns GraphQL errors into a GitHubError naming the operation", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post("/graphql")
      .reply(200, {
        data: { repository: null },
        errors: [
          { type: "NOT_FOUND", message: "Could not resolve to a Repository with the name 'acme/widgets'." },
        ],
      });

    await expect(gateway.listMilestoneIssues(1)).rejects.toMatchObject({
      name: "GitHubError",
      route: "graphql MilestoneIssues",
      message: expect.stringContaining("Could not resolve to a Repository") as unknown,
    });
  });
});
