/** Events that are not for Locus cost no GitHub call at all, not even the config read. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appCalls, newIssue, owner, repo } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

describe("events Locus ignores", () => {
  it("makes no call for another label, an ordinary comment or a milestone without `locus: active`", async () => {
    const issue = await newIssue(h, "Just an issue");
    const before = h.sim.requestLog.length;
    await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["bug"] });
    await h
      .as("alice")
      .rest.issues.createComment({ owner, repo, issue_number: issue, body: "Thanks, looks good." });
    await h.as("alice").rest.issues.createMilestone({ owner, repo, title: "Later", description: "not yet" });
    await h.settle();
    const delivered = h.sim.webhooks.deliveries.slice(-3).map((d) => `${d.event}.${d.action ?? ""}`);
    expect(delivered).toEqual(["issues.labeled", "issue_comment.created", "milestone.created"]);
    expect(appCalls(h, before)).toEqual([]);
  });

  it("still acts on the events that are for it", async () => {
    const issue = await newIssue(h, "Queue me");
    const before = h.sim.requestLog.length;
    await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
    await h.settle();
    expect(appCalls(h, before)).toContain(
      `POST /repos/${owner}/${repo}/actions/workflows/locus.yml/dispatches`,
    );
  });
});
