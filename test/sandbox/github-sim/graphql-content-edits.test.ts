/**
 * The simulator's edit history as GitHub serves it: `userContentEdits` newest
 * first, each revision's whole text in `diff`, the created text included once
 * the body was edited; `lastEditedAt`, `viewerDidAuthor`; `resource(url:)` for a
 * workflow run; issues filtered by `filterBy.since` and ordered by update.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestSim, type Client, type TestSim } from "./harness.ts";

const historyQuery = `
  query History($owner: String!, $name: String!, $number: Int!) {
    repository(owner: $owner, name: $name) {
      issue(number: $number) {
        body lastEditedAt includesCreatedEdit createdAt viewerDidAuthor
        userContentEdits(first: 10) { nodes { editedAt diff deletedAt editor { login } } }
        comments(first: 10) {
          nodes { body lastEditedAt includesCreatedEdit viewerDidAuthor userContentEdits(first: 10) { nodes { diff } } }
        }
      }
    }
  }`;

interface Edit {
  editedAt: string;
  diff: string | null;
  deletedAt: string | null;
  editor: { login: string };
}

interface History {
  data: {
    repository: {
      issue: {
        body: string;
        lastEditedAt: string | null;
        includesCreatedEdit: boolean;
        createdAt: string;
        viewerDidAuthor: boolean;
        userContentEdits: { nodes: Edit[] };
        comments: {
          nodes: {
            body: string;
            lastEditedAt: string | null;
            includesCreatedEdit: boolean;
            viewerDidAuthor: boolean;
            userContentEdits: { nodes: { diff: string }[] };
          }[];
        };
      };
    };
  };
}

describe("GraphQL edit history", () => {
  let t: TestSim;
  let clock: Date;
  let alice: Client;
  let aliceToken: string;

  beforeEach(async () => {
    clock = new Date("2026-11-24T09:00:00Z");
    t = await startTestSim({ now: () => clock });
    const repo = await t.sim.seed.repo("octocat/hello", {
      files: { ".github/workflows/locus.yml": "name: Locus\non: workflow_dispatch\njobs: {}\n" },
    });
    repo.collaborator("alice", "write");
    aliceToken = t.sim.as("alice");
    alice = t.client(aliceToken);
  });
  afterEach(() => t.close());

  async function graphql<T>(
    query: string,
    variables: Record<string, unknown>,
    token = aliceToken,
  ): Promise<T> {
    const response = await fetch(`${t.sim.url}/api/graphql`, {
      method: "POST",
      headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as T;
  }

  const at = { owner: "octocat", repo: "hello" };

  it("keeps every revision of a body, the created text first, and serves them newest first", async () => {
    const { data: issue } = await alice.request("POST /repos/{owner}/{repo}/issues", {
      ...at,
      title: "Greet",
      body: "Say Hi.",
    });
    const { data: comment } = await alice.request(
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      {
        ...at,
        issue_number: issue.number,
        body: "One line, please.",
      },
    );
    const variables = { owner: "octocat", name: "hello", number: issue.number };
    const fresh = await graphql<History>(historyQuery, variables);
    expect(fresh.data.repository.issue).toMatchObject({ lastEditedAt: null, includesCreatedEdit: false });
    expect(fresh.data.repository.issue.userContentEdits.nodes).toEqual([]);

    clock = new Date("2026-11-24T09:05:00Z");
    await alice.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
      ...at,
      issue_number: issue.number,
      body: "Say Hey.",
    });
    clock = new Date("2026-11-24T09:07:00Z");
    await t.client(t.sim.as("octocat")).request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
      ...at,
      issue_number: issue.number,
      body: "Say Yo.",
    });
    await alice.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
      ...at,
      comment_id: comment.id,
      body: "Two lines.",
    });

    const edited = (await graphql<History>(historyQuery, variables)).data.repository.issue;
    expect(edited.body).toBe("Say Yo.");
    expect(edited.lastEditedAt).toBe("2026-11-24T09:07:00Z");
    expect(edited.includesCreatedEdit).toBe(true);
    expect(edited.viewerDidAuthor).toBe(true);
    expect(edited.userContentEdits.nodes.map((e) => [e.editedAt, e.diff, e.editor.login])).toEqual([
      ["2026-11-24T09:07:00Z", "Say Yo.", "octocat"],
      ["2026-11-24T09:05:00Z", "Say Hey.", "alice"],
      ["2026-11-24T09:00:00Z", "Say Hi.", "alice"],
    ]);
    const [editedComment] = edited.comments.nodes;
    expect(editedComment?.lastEditedAt).toBe("2026-11-24T09:07:00Z");
    expect(editedComment?.userContentEdits.nodes.map((e) => e.diff)).toEqual([
      "Two lines.",
      "One line, please.",
    ]);
    const asOther = await graphql<History>(historyQuery, variables, t.sim.as("octocat"));
    expect(asOther.data.repository.issue.viewerDidAuthor).toBe(false);
  });

  it("resolves a workflow run's URL to its creation time, and nothing else", async () => {
    clock = new Date("2026-11-24T10:00:00Z");
    await alice.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
      ...at,
      workflow_id: "locus.yml",
      ref: "main",
      inputs: {},
    });
    const { data: runs } = await alice.request("GET /repos/{owner}/{repo}/actions/runs", at);
    const run = runs.workflow_runs[0];
    const query = `query Run($url: URI!) { resource(url: $url) { __typename ... on WorkflowRun { createdAt databaseId } } }`;
    type Answer = {
      data: { resource: { __typename: string; createdAt: string; databaseId: number } | null };
    };
    const found = await graphql<Answer>(query, { url: run?.html_url });
    expect(found.data.resource).toEqual({
      __typename: "WorkflowRun",
      createdAt: "2026-11-24T10:00:00Z",
      databaseId: run?.id,
    });
    const missing = await graphql<Answer>(query, { url: `${t.sim.url}/octocat/hello/actions/runs/999999` });
    expect(missing.data.resource).toBeNull();
  });

  it("filters issues by filterBy.since and labels and orders them by update", async () => {
    const make = async (title: string, labels: string[]) =>
      (await alice.request("POST /repos/{owner}/{repo}/issues", { ...at, title, labels })).data.number;
    const old = await make("Old", ["agent:managed"]);
    clock = new Date("2026-11-24T12:00:00Z");
    const unmanaged = await make("Unmanaged", []);
    const recent = await make("Recent", ["agent:managed"]);
    clock = new Date("2026-11-24T13:00:00Z");
    await alice.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
      ...at,
      issue_number: old,
      title: "Old, touched",
    });
    const query = `query Since($since: DateTime!) { repository(owner: "octocat", name: "hello") {
      issues(first: 10, filterBy: { since: $since, labels: ["agent:managed"] }, orderBy: { field: UPDATED_AT, direction: DESC }) { nodes { number } } } }`;
    type Answer = { data: { repository: { issues: { nodes: { number: number }[] } } } };
    const since = await graphql<Answer>(query, { since: "2026-11-24T11:00:00Z" });
    expect(since.data.repository.issues.nodes.map((n) => n.number)).toEqual([old, recent]);
    expect(since.data.repository.issues.nodes.map((n) => n.number)).not.toContain(unmanaged);
  });
});
