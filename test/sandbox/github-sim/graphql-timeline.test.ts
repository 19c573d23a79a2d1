/**
 * The simulator's issue timeline as GitHub serves it (`Issue.timelineItems`):
 * label, milestone and title events with their actor and time, and comments,
 * in time order, filtered by `itemTypes` and `since`, paged from either end.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestSim, type TestSim } from "./harness.ts";

const timelineQuery = `
  query Timeline($owner: String!, $name: String!, $number: Int!, $types: [IssueTimelineItemsItemType!]) {
    repository(owner: $owner, name: $name) {
      issue(number: $number) {
        timelineItems(last: 100, itemTypes: $types) {
          pageInfo { hasPreviousPage }
          nodes {
            __typename
            ... on LabeledEvent { createdAt actor { __typename login } label { name } }
            ... on UnlabeledEvent { createdAt actor { login } label { name } }
            ... on MilestonedEvent { createdAt actor { login } milestoneTitle }
            ... on RenamedTitleEvent { createdAt actor { login } previousTitle currentTitle }
            ... on IssueComment { createdAt author { login } body }
          }
        }
      }
    }
  }`;

interface Timeline {
  data: { repository: { issue: { timelineItems: { pageInfo: unknown; nodes: Record<string, unknown>[] } } } };
  errors?: unknown;
}

describe("GraphQL issue timeline", () => {
  let t: TestSim;
  let clock: Date;
  const tick = () => (clock = new Date(clock.getTime() + 60_000));
  const at = { owner: "octocat", repo: "hello" };

  beforeEach(async () => {
    clock = new Date("2026-11-24T09:00:00Z");
    t = await startTestSim({ now: () => clock });
    const repo = await t.sim.seed.repo("octocat/hello");
    repo.collaborator("alice", "write").collaborator("mallory", "read");
  });
  afterEach(() => t.close());

  async function timeline(number: number, types?: string[]): Promise<Timeline> {
    const response = await fetch(`${t.sim.url}/api/graphql`, {
      method: "POST",
      headers: { authorization: `bearer ${t.sim.as("alice")}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: timelineQuery,
        variables: { owner: "octocat", name: "hello", number, ...(types ? { types } : {}) },
      }),
    });
    return (await response.json()) as Timeline;
  }

  it("records who labelled, milestoned and renamed the issue, and when, beside its comments", async () => {
    const alice = t.client(t.sim.as("alice"));
    const mallory = t.client(t.sim.as("mallory"));
    const { data: milestone } = await alice.request("POST /repos/{owner}/{repo}/milestones", {
      ...at,
      title: "Sprint 1",
    });
    const { data: issue } = await mallory.request("POST /repos/{owner}/{repo}/issues", {
      ...at,
      title: "Greet",
    });
    const number = issue.number;
    tick();
    await alice.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
      ...at,
      issue_number: number,
      labels: ["locus:queued"],
    });
    tick();
    await alice.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
      ...at,
      issue_number: number,
      milestone: milestone.number,
    });
    tick();
    await mallory.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      ...at,
      issue_number: number,
      body: "Thanks!",
    });
    tick();
    await mallory.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
      ...at,
      issue_number: number,
      title: "Greet and leak",
    });

    const all = await timeline(number);
    expect(all.errors).toBeUndefined();
    expect(all.data.repository.issue.timelineItems.nodes).toEqual([
      {
        __typename: "LabeledEvent",
        createdAt: "2026-11-24T09:01:00Z",
        actor: { __typename: "User", login: "alice" },
        label: { name: "locus:queued" },
      },
      {
        __typename: "MilestonedEvent",
        createdAt: "2026-11-24T09:02:00Z",
        actor: { login: "alice" },
        milestoneTitle: "Sprint 1",
      },
      {
        __typename: "IssueComment",
        createdAt: "2026-11-24T09:03:00Z",
        author: { login: "mallory" },
        body: "Thanks!",
      },
      {
        __typename: "RenamedTitleEvent",
        createdAt: "2026-11-24T09:04:00Z",
        actor: { login: "mallory" },
        previousTitle: "Greet",
        currentTitle: "Greet and leak",
      },
    ]);
    const renames = await timeline(number, ["RENAMED_TITLE_EVENT"]);
    expect(renames.data.repository.issue.timelineItems.nodes.map((node) => node["__typename"])).toEqual([
      "RenamedTitleEvent",
    ]);
  });
});
