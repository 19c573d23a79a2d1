/**
 * Whose work is it: a run the workflow's concurrency group cancelled while it
 * was pending never touched the work, which the run still in progress owns,
 * so the issue is not marked failed; and label changes made with the
 * workflows' `GITHUB_TOKEN` (github-actions[bot], as the stale sweep makes
 * them) are Locus's own, not a foreign bot's to be undone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { commentsOf, labelsOf, newIssue, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
afterEach(() => h.close());

describe("a pending run cancelled by a newer one", () => {
  it("is not a failure of the work the running run owns", async () => {
    h = await startAppHarness();
    h.runsConclude("hold");
    const issue = await newIssue(h, "Greet by name");
    await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
    await h.settleWebhooks();

    // Two more runs of the same work (by hand, or a second replica): the first waits, the second displaces it.
    for (const delivery of ["manual-1", "manual-2"]) {
      await h.as("alice").rest.actions.createWorkflowDispatch({
        owner,
        repo,
        workflow_id: "locus.yml",
        ref: "main",
        inputs: { mode: "issue", issue: String(issue), delivery },
      });
    }
    await h.settleWebhooks();

    expect(runs(h).map((run) => `${run.status}/${run.conclusion ?? "-"}`)).toEqual([
      "in_progress/-",
      "completed/cancelled",
      "queued/-",
    ]);
    expect(await labelsOf(h, issue)).not.toContain("locus:failed");
    expect((await commentsOf(h, issue)).join("\n")).not.toContain("ended with `cancelled`");
    // Let the pending run finish once the held one is cancelled, so the harness can close.
    h.runsConclude("success");
    await h.as("alice").rest.actions.cancelWorkflowRun({ owner, repo, run_id: runs(h)[0]?.id ?? 0 });
  });
});

describe("labels set with the workflows' GITHUB_TOKEN", () => {
  it("are Locus's own: neither acted on nor taken off", async () => {
    h = await startAppHarness();
    const issue = await newIssue(h, "Greet by name");
    h.sim.seed.user("github-actions[bot]", "Bot");
    h.repo.collaborator("github-actions[bot]", "write");
    const before = h.sim.requestLog.length;

    await h
      .as("github-actions[bot]")
      .rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
    await h.settle();

    expect(await labelsOf(h, issue)).toContain("locus:queued");
    expect(runs(h)).toHaveLength(0);
    const writes = h.sim.requestLog
      .slice(before)
      .filter(
        (entry) =>
          entry.login === h.sim.app.botLogin &&
          entry.method !== "GET" &&
          !entry.path.endsWith("/access_tokens"),
      );
    expect(writes).toEqual([]);
  });
});
