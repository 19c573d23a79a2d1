/**
 * The update mutations a task batches into one request: an issue's or a pull
 * request's whole label set (`labelIds`) and an issue comment's body, with
 * GitHub's permission rules and the webhooks the same REST writes send.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RepoSeeder } from "../../../sandbox/github-sim/index.ts";
import { appJwt, pushBranch, startTestSim, type Client, type TestSim } from "./harness.ts";

const repo = { owner: "acme", repo: "widgets" };

const LABEL_IDS = `
  query Labels {
    repository(owner: "acme", name: "widgets") {
      statusLabels: labels(first: 20, query: "locus:") { nodes { id name } }
      managed: label(name: "AGENT:managed") { id name }
      missing: label(name: "nope") { id }
    }
  }`;

const MOMENT = `
  mutation Moment($issue: ID!, $labels: [ID!]!, $pull: ID!, $pullLabels: [ID!]!, $comment: ID!, $body: String!) {
    w0: updatePullRequest(input: { pullRequestId: $pull, labelIds: $pullLabels }) { pullRequest { labels(first: 10) { nodes { name } } } }
    w1: updateIssue(input: { id: $issue, labelIds: $labels }) { issue { labels(first: 10) { nodes { name } } } }
    w2: updateIssueComment(input: { id: $comment, body: $body }) { issueComment { body } }
  }`;

type Labels = { nodes: { id: string; name: string }[] };

let t: TestSim;
afterEach(() => t.close());

async function start(): Promise<{ app: Client; installationId: number; seeded: RepoSeeder }> {
  t = await startTestSim();
  const seeded = await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n" } });
  for (const name of ["locus:queued", "locus:in-progress", "agent:managed", "bug"]) seeded.label(name);
  const installationId = t.sim.seed.installation("acme").id;
  return { app: t.client(appJwt(t.sim.app.id, t.sim.appPrivateKey ?? "")), installationId, seeded };
}

async function token(app: Client, installationId: number, permissions?: Record<string, string>) {
  const { data } = await app.request("POST /app/installations/{installation_id}/access_tokens", {
    installation_id: installationId,
    ...(permissions ? { permissions } : {}),
  });
  return (data as { token: string }).token;
}

async function setup() {
  const { app, installationId, seeded } = await start();
  const locus = t.client(await token(app, installationId));
  const issue = await seeded.issue({ title: "Task", labels: ["locus:queued", "bug"] });
  const comment = await seeded.comment(issue.number, "Queued.");
  const { data: issueJson } = await locus.rest.issues.get({ ...repo, issue_number: issue.number });
  const { data: commentJson } = await locus.rest.issues.getComment({ ...repo, comment_id: comment.id });
  const ids = await locus.graphql<{
    repository: { statusLabels: Labels; managed: { id: string; name: string } | null; missing: null };
  }>(LABEL_IDS);
  const byName = new Map(
    [...ids.repository.statusLabels.nodes, ...(ids.repository.managed ? [ids.repository.managed] : [])].map(
      (label) => [label.name, label.id],
    ),
  );
  const bug = issueJson.labels.flatMap((label) =>
    typeof label !== "string" && label.name === "bug" ? [label] : [],
  );
  return { app, installationId, seeded, locus, issue, issueJson, commentJson, ids, byName, bug };
}

describe("labels found by name for a batched write", () => {
  it("lists labels matching a query and finds one by name, case-insensitively", async () => {
    const { ids } = await setup();
    expect(ids.repository.statusLabels.nodes.map((label) => label.name)).toEqual([
      "locus:queued",
      "locus:in-progress",
    ]);
    expect(ids.repository.managed?.name).toBe("agent:managed");
    expect(ids.repository.missing).toBeNull();
  });
});

describe("updateIssue with labelIds", () => {
  it("replaces the whole label set, sending labeled and unlabeled like PUT …/labels", async () => {
    const { locus, issueJson, byName, bug } = await setup();
    const before = t.sim.webhooks.deliveries.length;

    const answer = await locus.graphql<{ updateIssue: { issue: { labels: { nodes: { name: string }[] } } } }>(
      `mutation($id: ID!, $labels: [ID!]!) { updateIssue(input: { id: $id, labelIds: $labels }) { issue { labels(first: 10) { nodes { name } } } } }`,
      { id: issueJson.node_id, labels: [byName.get("locus:in-progress"), bug[0]?.node_id] },
    );

    expect(answer.updateIssue.issue.labels.nodes.map((label) => label.name).sort()).toEqual([
      "bug",
      "locus:in-progress",
    ]);
    const events = t.sim.webhooks.deliveries.slice(before).map((d) => {
      const payload = d.payload as { action: string; label?: { name: string } };
      return `${d.event}.${payload.action} ${payload.label?.name ?? ""}`;
    });
    expect(events).toEqual(["issues.unlabeled locus:queued", "issues.labeled locus:in-progress"]);
  });

  it("is refused to a token without issues: write, and changes nothing", async () => {
    const { app, installationId, issueJson, byName } = await setup();
    const reader = t.client(await token(app, installationId, { issues: "read" }));
    const answer = reader.graphql(
      `mutation($id: ID!, $labels: [ID!]!) { updateIssue(input: { id: $id, labelIds: $labels }) { clientMutationId } }`,
      { id: issueJson.node_id, labels: [byName.get("locus:in-progress")] },
    );
    await expect(answer).rejects.toMatchObject({ errors: [{ type: "FORBIDDEN", path: ["updateIssue"] }] });
    const { data } = await t
      .client(t.sim.as("acme"))
      .rest.issues.get({ ...repo, issue_number: issueJson.number });
    expect(data.labels.map((label) => (typeof label === "string" ? label : label.name))).toContain(
      "locus:queued",
    );
  });

  it("answers NOT_FOUND for a label id that names no label", async () => {
    const { locus, issueJson } = await setup();
    const answer = locus.graphql(
      `mutation($id: ID!, $labels: [ID!]!) { updateIssue(input: { id: $id, labelIds: $labels }) { clientMutationId } }`,
      { id: issueJson.node_id, labels: ["LA_bm9wZQ"] },
    );
    await expect(answer).rejects.toMatchObject({ errors: [{ type: "NOT_FOUND" }] });
  });
});

describe("one request with a moment's writes", () => {
  it("labels a new PR, moves the issue's status and edits the comment, in order", async () => {
    const { seeded, locus, issueJson, commentJson, byName, bug } = await setup();
    await pushBranch(seeded.gitDir, t.tempDir, "locus/issue-1", { "a.txt": "two\n" });
    const { data: pull } = await locus.rest.pulls.create({
      ...repo,
      title: "Fix",
      head: "locus/issue-1",
      base: "main",
    });
    const answer = await locus.graphql<Record<string, unknown>>(MOMENT, {
      issue: issueJson.node_id,
      labels: [byName.get("locus:in-progress"), bug[0]?.node_id],
      pull: pull.node_id,
      pullLabels: [byName.get("agent:managed")],
      comment: commentJson.node_id,
      body: "Working.",
    });
    expect(answer).toMatchObject({
      w0: { pullRequest: { labels: { nodes: [{ name: "agent:managed" }] } } },
      w1: { issue: { labels: { nodes: [{ name: "locus:in-progress" }, { name: "bug" }] } } },
      w2: { issueComment: { body: "Working." } },
    });
  });

  it("edits a comment with updateIssueComment, keeping its edit history", async () => {
    const { locus, commentJson } = await setup();
    const before = t.sim.webhooks.deliveries.length;
    const answer = await locus.graphql<{ updateIssueComment: { issueComment: { body: string } } }>(
      `mutation($id: ID!, $body: String!) { updateIssueComment(input: { id: $id, body: $body }) { issueComment { body lastEditedAt } } }`,
      { id: commentJson.node_id, body: "Working." },
    );
    expect(answer.updateIssueComment.issueComment.body).toBe("Working.");
    const edited = t.sim.webhooks.deliveries
      .slice(before)
      .map((d) => `${d.event}.${(d.payload as { action: string }).action}`);
    expect(edited).toEqual(["issue_comment.edited"]);
  });

  it("refuses someone else's comment to a user without triage", async () => {
    const { seeded, commentJson } = await setup();
    seeded.collaborator("reader", "read");
    const reader = t.client(t.sim.as("reader"));
    const answer = reader.graphql(
      `mutation($id: ID!) { updateIssueComment(input: { id: $id, body: "mine now" }) { clientMutationId } }`,
      { id: commentJson.node_id },
    );
    await expect(answer).rejects.toMatchObject({ errors: [{ type: "FORBIDDEN" }] });
  });
});
