/**
 * The one applier (lib/lifecycle/apply-effects.ts) against the typed fake
 * gateway (test/fakes/github-fake.ts): what each step writes, in which
 * calls, and what the issue carries afterwards.
 */
import { describe, expect, it } from "vitest";
import type { MomentWrite } from "../../../lib/github/index.ts";
import {
  advanceTask,
  applyEffects,
  applyLabelSets,
  statusTarget,
  type EffectTarget,
} from "../../../lib/lifecycle/apply-effects.ts";
import { taskState } from "../../../lib/lifecycle/lifecycle.ts";
import { EMPTY_STATE } from "../../../lib/status/status-comment.ts";
import { readStatusRecord } from "../../../lib/status/status-store.ts";
import { createGitHubFake } from "../../fakes/github-fake.ts";

const mask = (text: string) => text.replaceAll("s3cret", "***");

/** An issue queued on the fake, and the applier's target for it with its status comment as read. */
async function queuedTask(labels: readonly string[] = ["locus:queued"]) {
  const fake = createGitHubFake();
  const issue = fake.seedIssue({ title: "Task", labels });
  const target: EffectTarget = statusTarget(fake, issue, await readStatusRecord(fake, issue.number), mask);
  fake.store.calls.length = 0;
  return { fake, issue, target };
}

const members = (fake: ReturnType<typeof createGitHubFake>) => fake.calls.map((call) => call.member);

describe("applyEffects", () => {
  it("sends the labels, the status comment and the moment's other writes together, then posts comments masked", async () => {
    const { fake, issue, target } = await queuedTask();
    const dashboard = fake.seedIssue({ title: "Sprint", body: "old dashboard" });
    const alongside: MomentWrite = { kind: "body", number: dashboard.number, body: "dashboard" };
    const applied = await applyEffects(
      target,
      [
        { kind: "labels", labels: ["locus:failed"] },
        { kind: "status", view: { headline: "Failed" }, state: EMPTY_STATE },
        { kind: "comment", role: "failure", body: "token s3cret leaked" },
      ],
      [alongside],
    );
    expect(members(fake)).toEqual(["writeMoment", "createComment"]);
    expect(fake.moments[0]?.map((write) => write.kind)).toEqual(["labels", "body", "new-comment"]);
    expect(applied.labels).toEqual(["locus:failed"]);
    expect(fake.labelsOf(issue.number)).toEqual(["locus:failed"]);
    expect(dashboard.body).toBe("dashboard");
    expect(applied.comments.map((comment) => comment.body)).toEqual(["token *** leaked"]);
    expect((await readStatusRecord(fake, issue.number)).comment?.body).toContain("Failed");
  });

  it("edits the status comment it created, in the same request as the next label set", async () => {
    const { fake, issue, target } = await queuedTask();
    const status = (headline: string) => ({
      kind: "status" as const,
      view: { headline },
      state: EMPTY_STATE,
    });
    await applyEffects(target, [{ kind: "labels", labels: ["locus:in-progress"] }, status("Working")]);
    await applyEffects(target, [{ kind: "labels", labels: ["locus:in-review"] }, status("Done")]);
    expect(members(fake)).toEqual(["writeMoment", "writeMoment"]);
    const comments = (await fake.getIssue(issue.number))?.comments ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain("Done");
    expect(fake.labelsOf(issue.number)).toEqual(["locus:in-review"]);
  });

  it("sends labels without a status comment as a moment of their own", async () => {
    const { fake, issue, target } = await queuedTask();
    const applied = await applyEffects(target, [
      { kind: "labels", labels: ["locus:waiting"] },
      { kind: "comment", role: "question", body: "Which API?" },
    ]);
    expect(members(fake)).toEqual(["writeMoment", "createComment"]);
    expect(applied.labels).toEqual(["locus:waiting"]);
    expect(fake.labelsOf(issue.number)).toEqual(["locus:waiting"]);
  });

  it("writes nothing for a step without effects", async () => {
    const { fake, target } = await queuedTask();
    expect(await applyEffects(target, [])).toEqual({ comments: [] });
    expect(fake.calls).toEqual([]);
  });

  it("takes one label off alone and says whether it was there to take", async () => {
    const { fake, issue, target } = await queuedTask(["locus:queued", "p:high"]);
    const claim = [{ kind: "remove-label", label: "locus:queued" }] as const;
    expect(await applyEffects(target, claim)).toEqual({ removed: true, comments: [] });
    expect(await applyEffects(target, claim)).toEqual({ removed: false, comments: [] });
    expect(fake.callsOf("removeLabel")).toEqual([
      [issue.number, "locus:queued"],
      [issue.number, "locus:queued"],
    ]);
    expect(fake.labelsOf(issue.number)).toEqual(["p:high"]);
  });
});

describe("advanceTask", () => {
  it("steps a read-only run's start onto the status comment and moves no label", async () => {
    const { fake, issue, target } = await queuedTask();
    const { task } = await advanceTask(target, taskState([], EMPTY_STATE), {
      kind: "read-only-started",
      headline: "Planning",
      runUrl: "https://github.test/acme/widgets/actions/runs/1",
      unsandboxed: false,
    });
    expect(members(fake)).toEqual(["createComment"]);
    expect(fake.labelsOf(issue.number)).toEqual(["locus:queued"]);
    const record = await readStatusRecord(fake, issue.number);
    expect(record.comment?.body).toContain("Planning");
    expect(task).toEqual({ ...record.state, labels: [] });
  });
});

describe("applyLabelSets", () => {
  it("sends many issues' label sets 50 to a request, and refuses any other effect", async () => {
    const fake = createGitHubFake();
    const steps = Array.from({ length: 120 }, () => ({
      issue: fake.seedIssue({ title: "Sprint task" }),
      effects: [{ kind: "labels" as const, labels: ["locus:queued"] }],
    }));
    await applyLabelSets(fake, steps);
    expect(fake.moments.map((writes) => writes.length)).toEqual([50, 50, 20]);
    expect(fake.labelsOf(120)).toEqual(["locus:queued"]);
    await expect(
      applyLabelSets(fake, [
        { issue: { number: 1 }, effects: [{ kind: "status", view: { headline: "x" }, state: EMPTY_STATE }] },
      ]),
    ).rejects.toThrow("only label sets");
  });
});
