/**
 * Concurrent stale sweeps (docs/reliability.md): the stale sweep is a cron job, and GitHub may drop a scheduled run or
 * run two at once (a manual run beside the schedule, a delayed run catching
 * up). Two sweeps over the same issues must dispatch each retry once, and the
 * attempt count must move only when an attempt really starts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { Harness } from "../action/harness.ts";
import { PROJECT_FILES, startHarness } from "../action/harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
}, 60_000);

afterAll(async () => {
  await h.close();
});

function repoState() {
  const repo = [...h.sim.store.repos.values()][0];
  if (!repo) throw new Error("no repository in the simulator");
  return repo;
}

function dispatchesFor(issue: number): Array<Record<string, string>> {
  return repoState()
    .runs.filter((run) => run.inputs["issue"] === String(issue))
    .map((run) => run.inputs);
}

function attempts(body: string | undefined): number {
  return Number(/"attempts":(\d+)/.exec(body ?? "")?.[1] ?? "0");
}

async function statusBody(issue: number): Promise<string | undefined> {
  return (await h.api.getIssue(issue))?.comments.find((c) => c.body.startsWith("<!-- locus:status -->"))
    ?.body;
}

/** GitHub's clock moves on by `minutes` for every comment of `issue` (a dropped cron leaves a long gap). */
function age(issue: number, minutes: number): void {
  for (const comment of repoState().comments.filter((c) => c.issueNumber === issue)) {
    comment.updatedAt = new Date(Date.parse(comment.updatedAt) - minutes * 60_000)
      .toISOString()
      .replace(/\.\d+Z$/, "Z");
  }
}

describe("two sweeps at once, after a dropped cron", () => {
  it("dispatch each retry once and count the attempt once", async () => {
    // A failed attempt and a stuck one, both left alone for hours (the crons in between dropped).
    const failed = (
      await h.api.createIssue({ title: "Failed once", body: "Do it.", labels: ["locus:queued"] })
    ).number;
    h.fake.setScript([{ status: 400 }]);
    const firstAttempt = await h.run({ mode: "issue", issue: String(failed) });
    expect(firstAttempt.code).toBe(0);
    expect((await h.api.getIssue(failed))?.labels).toContain("locus:failed");
    expect(attempts(await statusBody(failed))).toBe(1);

    const stuck = (await h.api.createIssue({ title: "Stuck", body: "Do it.", labels: ["locus:in-progress"] }))
      .number;
    await h.api.upsertComment(
      stuck,
      "locus:status",
      `**Locus:** Working on it.\n<!-- locus:state {"deliveries":[],"attempts":1} -->`,
    );
    age(failed, 300);
    age(stuck, 300);

    // The interleaving that double-dispatched, made certain: the first sweep's first label write
    // on the failed issue is held until the second sweep's arrives, so both have read it as failed.
    let releaseFirst = () => undefined as void;
    const secondArrived = new Promise<void>((resolve) => (releaseFirst = resolve));
    const labelsOfFailed = new RegExp(`^/repos/[^/]+/[^/]+/issues/${failed}/labels(/.*)?$`);
    h.sim.faults.add({ kind: "hang", path: labelsOfFailed, times: 1, release: secondArrived });
    h.sim.faults.add({
      kind: "hang",
      path: labelsOfFailed,
      times: 1,
      onHang: () => releaseFirst(),
      release: Promise.resolve(),
    });

    const sweeps = await Promise.all([h.run({ mode: "stale" }), h.run({ mode: "stale" })]);

    for (const sweep of sweeps) expect(sweep.code).toBe(0);
    expect(dispatchesFor(failed)).toHaveLength(1);
    expect(dispatchesFor(stuck)).toHaveLength(1);
    expect((await h.api.getIssue(failed))?.labels).toContain("locus:queued");
    expect((await h.api.getIssue(stuck))?.labels).toContain("locus:queued");
    expect(attempts(await statusBody(failed)), "a sweep does not count an attempt").toBe(1);

    // The dispatched retry runs once and counts once.
    h.fake.setScript([
      reply(call("write_file", { path: "src/done.js", content: "export const done = true;\n" })),
      reply(call("finish", { summary: "Done." })),
    ]);
    const retry = await h.run(dispatchesFor(failed)[0] ?? {});
    expect(retry.outputs["status"]).toBe("succeeded");
    expect(attempts(await statusBody(failed))).toBe(2);

    // A sweep after that finds nothing more to do for either.
    const again = await Promise.all([h.run({ mode: "stale" }), h.run({ mode: "stale" })]);
    for (const sweep of again) expect(sweep.code).toBe(0);
    expect(dispatchesFor(failed)).toHaveLength(1);
    expect(dispatchesFor(stuck)).toHaveLength(1);
  }, 120_000);

  it("send a lost dispatch once, though both read it as lost", async () => {
    const lost = (await h.api.createIssue({ title: "Lost", body: "Do it.", labels: ["locus:queued"] }))
      .number;
    await h.api.upsertComment(
      lost,
      "locus:status",
      `**Locus:** Queued.\n<!-- locus:state {"deliveries":[],"attempts":0} -->`,
    );
    age(lost, 300);
    // Both sweeps read the status comment, and find it quiet too long, before either dispatches.
    let releaseFirst = () => undefined as void;
    const secondRead = new Promise<void>((resolve) => (releaseFirst = resolve));
    const commentsOfLost = new RegExp(`^/repos/[^/]+/[^/]+/issues/${lost}/comments$`);
    h.sim.faults.add({ kind: "hang", method: "GET", path: commentsOfLost, times: 1, release: secondRead });
    h.sim.faults.add({
      kind: "hang",
      method: "GET",
      path: commentsOfLost,
      times: 1,
      onHang: () => releaseFirst(),
      release: Promise.resolve(),
    });

    const sweeps = await Promise.all([h.run({ mode: "stale" }), h.run({ mode: "stale" })]);

    for (const sweep of sweeps) expect(sweep.code).toBe(0);
    expect(dispatchesFor(lost)).toHaveLength(1);
    expect((await h.api.getIssue(lost))?.labels).toContain("locus:queued");
  }, 120_000);
});
