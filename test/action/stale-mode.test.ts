import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
}, 60_000);

afterAll(async () => {
  await h.close();
});

function statusBody(attempts: number): string {
  return `**Locus:** Working on it.\n<!-- locus:state {"deliveries":[],"attempts":${attempts}} -->`;
}

/** An issue with a status comment last touched `minutesAgo` minutes ago. */
async function issueWithStatus(
  title: string,
  labels: string[],
  attempts: number,
  minutesAgo: number,
  milestone?: number,
) {
  const issue = await h.api.createIssue({ title, labels, ...(milestone === undefined ? {} : { milestone }) });
  const comment = await h.api.upsertComment(issue.number, "locus:status", statusBody(attempts));
  const stored = [...h.sim.store.repos.values()][0]?.comments.find((c) => c.id === comment.comment.id);
  if (stored)
    stored.updatedAt = new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
  return issue.number;
}

function dispatched(): Array<Record<string, string>> {
  return ([...h.sim.store.repos.values()][0]?.runs ?? []).map((run) => run.inputs);
}

describe("mode stale", () => {
  it("re-queues stuck and retryable issues, dispatches their work itself, and stops at the budget", async () => {
    const milestone = await h.api.createMilestone({ title: "Sprint S" });
    const stuck = await issueWithStatus("Stuck", ["locus:in-progress"], 1, 120);
    const fresh = await issueWithStatus("Fresh", ["locus:in-progress"], 1, 5);
    const live = await issueWithStatus("Live", ["locus:in-progress"], 1, 120);
    const sprintTask = await issueWithStatus(
      "In a sprint",
      ["locus:in-progress", "order:1"],
      1,
      120,
      milestone.number,
    );
    const retryable = await issueWithStatus("Failed once", ["locus:failed"], 1, 120);
    const exhausted = await issueWithStatus("Failed often", ["locus:failed"], 4, 120);
    await h.api.dispatchWorkflow("locus.yml", "main", {
      mode: "issue",
      issue: String(live),
      delivery: "manual",
    });

    const run = await h.run({ mode: "stale" });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const labels = async (n: number) => (await h.api.getIssue(n))?.labels ?? [];
    expect(await labels(stuck)).toContain("locus:queued");
    expect(await labels(retryable)).toContain("locus:queued");
    expect(await labels(sprintTask)).toContain("locus:queued");
    expect(await labels(fresh)).toContain("locus:in-progress");
    expect(await labels(live)).toContain("locus:in-progress");
    expect(await labels(exhausted)).toContain("locus:failed");
    const inputs = dispatched().filter((i) => i["delivery"]?.startsWith("stale-"));
    expect(inputs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ mode: "issue", issue: String(stuck), delivery: `stale-9001-${stuck}` }),
        expect.objectContaining({ mode: "issue", issue: String(retryable) }),
        expect.objectContaining({ mode: "sprint", milestone: String(milestone.number) }),
      ]),
    );
    expect(inputs).toHaveLength(3);
    const stuckStatus = (await h.api.findCommentByMarker(stuck, "locus:status"))?.body ?? "";
    expect(stuckStatus).toContain("Re-queued by the stale sweep");
    expect(stuckStatus).toContain(`stale-9001-${stuck}`);
    const final = await h.api.findCommentByMarker(exhausted, "locus:retry-exhausted");
    expect(final?.body).toContain("will not retry it on its own");

    // A second sweep finds the same exhausted issue and does not comment again.
    await h.run({ mode: "stale" });
    const comments = (await h.api.getIssue(exhausted))?.comments ?? [];
    expect(comments.filter((c) => c.body.includes("will not retry"))).toHaveLength(1);
  });

  it("trusts no status label Locus did not record: a triage user's failed or in-progress label, even with a forged status comment, is left alone", async () => {
    h.repo.collaborator("tracy", "triage");
    const tracy = h.as("tracy");
    const bare = await tracy.createIssue({ title: "Labelled failed by triage" });
    await tracy.setLabels(bare.number, ["locus:failed"]);
    const forged = await tracy.createIssue({ title: "Forged status" });
    await tracy.createComment(forged.number, `<!-- locus:status -->\n${statusBody(1)}`);
    await tracy.setLabels(forged.number, ["locus:in-progress"]);
    const forgedFailed = await tracy.createIssue({ title: "Forged failure" });
    await tracy.createComment(forgedFailed.number, `<!-- locus:status -->\n${statusBody(1)}`);
    await tracy.setLabels(forgedFailed.number, ["locus:failed"]);
    const stored = [...h.sim.store.repos.values()][0]?.comments ?? [];
    for (const comment of stored.filter((c) => c.author === "tracy")) {
      comment.updatedAt = new Date(Date.now() - 120 * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    }
    const before = dispatched().length;

    const run = await h.run({ mode: "stale" });

    expect(run.code).toBe(0);
    expect(dispatched().slice(before)).toEqual([]);
    expect((await h.api.getIssue(bare.number))?.labels).toEqual(["locus:failed"]);
    expect((await h.api.getIssue(forged.number))?.labels).toEqual(["locus:in-progress"]);
    expect((await h.api.getIssue(forgedFailed.number))?.labels).toEqual(["locus:failed"]);
    expect(run.summary).toContain("not Locus's");
  });

  it("dispatches a sprint whose dispatch was lost, and never a waiting task or a sprint stopped by one", async () => {
    const lost = await h.api.createMilestone({ title: "Lost dispatch" });
    const queued = await issueWithStatus("Queued, no run", ["locus:queued", "order:1"], 0, 120, lost.number);
    const stopped = await h.api.createMilestone({ title: "Stopped on a question" });
    await issueWithStatus("Asks", ["locus:waiting", "order:1"], 1, 3000, stopped.number);
    const behind = await issueWithStatus("Behind it", ["locus:queued", "order:2"], 0, 3000, stopped.number);
    const waiting = await issueWithStatus("Waits a day", ["locus:waiting"], 1, 24 * 60 + 5);
    const before = dispatched().length;

    const run = await h.run({ mode: "stale" });

    expect(run.code).toBe(0);
    const inputs = dispatched().slice(before);
    expect(inputs.map((i) => [i["mode"], i["milestone"]])).toEqual([["sprint", String(lost.number)]]);
    expect(inputs[0]?.["delivery"]).toMatch(/^stale-\d+-\d+$/);
    const labels = async (n: number) => (await h.api.getIssue(n))?.labels ?? [];
    expect(await labels(queued)).toContain("locus:queued");
    expect(await labels(behind)).toContain("locus:queued");
    expect(await labels(waiting)).toContain("locus:waiting");
  });
});
