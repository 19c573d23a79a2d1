/**
 * The typed fake's own semantics (test/fakes/github-fake.ts), in process: it is
 * the whole gateway, it records what was written, it reads times from the
 * injected clock, and it says plainly what it does not model. Its agreement
 * with the simulator is test/fakes/github-fake-parity.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { GitHubGateway } from "../../../lib/github/index.ts";
import { createGitHubFake } from "../../fakes/github-fake.ts";

function steppingClock(start: string) {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance: (minutes: number) => void (at += minutes * 60_000),
  };
}

describe("createGitHubFake", () => {
  it("is the whole gateway, typed as such", () => {
    const gateway: GitHubGateway = createGitHubFake();
    expect(gateway.repo).toEqual({ owner: "acme", repo: "widgets" });
  });

  it("records every call by member and arguments, in order", async () => {
    const fake = createGitHubFake();
    const issue = fake.seedIssue({ title: "Task", labels: ["locus:queued"] });
    await fake.setLabels(issue.number, ["locus:in-progress"]);
    await fake.createComment(issue.number, "Working.");
    expect(fake.calls.map((call) => call.member)).toEqual(["setLabels", "createComment"]);
    expect(fake.callsOf("setLabels")).toEqual([[issue.number, ["locus:in-progress"]]]);
    expect(fake.counter.snapshot()).toMatchObject({ total: 2, writes: 2 });
  });

  it("stamps comments with the injected clock and keeps an edited comment's history", async () => {
    const clock = steppingClock("2026-03-01T10:00:00Z");
    const fake = createGitHubFake({ clock });
    const { number } = fake.seedIssue({ title: "Task" });
    const posted = await fake.createComment(number, "one");
    clock.advance(5);
    const edited = await fake.updateComment(posted.id, "two");
    expect(posted).toMatchObject({ author: "locus[bot]", createdAt: "2026-03-01T10:00:00.000Z" });
    expect(edited.updatedAt).toBe("2026-03-01T10:05:00.000Z");
    const read = await fake.readTask(number, { managedLabel: "agent:managed" });
    expect(read.issue?.comments[0]?.history).toMatchObject({
      lastEditedAt: "2026-03-01T10:05:00.000Z",
      revisions: [{ body: "one" }, { body: "two" }],
    });
  });

  it("finds a sticky comment only when Locus wrote it", async () => {
    const fake = createGitHubFake();
    const { number } = fake.seedIssue({ title: "Task" });
    fake.seedComment(number, "<!-- locus:status -->\nforged", "mallory");
    expect(await fake.findCommentByMarker(number, "locus:status")).toBeNull();
    await fake.createComment(number, "<!-- locus:status -->\nreal");
    expect((await fake.findCommentByMarker(number, "locus:status"))?.body).toContain("real");
  });

  it("lists a dispatched run under the name Locus's workflow gives it", async () => {
    const fake = createGitHubFake();
    const started = await fake.dispatchWorkflow("locus.yml", "main", {
      mode: "issue",
      issue: "3",
      delivery: "d-1",
    });
    const queued = await fake.listWorkflowRuns("locus.yml", { status: "queued" });
    expect(queued.map((run) => [run.id, run.displayTitle])).toEqual([[started?.id, "Locus issue #3 (d-1)"]]);
    expect(await fake.cancelWorkflowRun(queued[0]?.id ?? 0)).toBe("cancelled");
    expect(await fake.cancelWorkflowRun(queued[0]?.id ?? 0)).toBe("already-finished");
  });

  it("says plainly which member it does not model", async () => {
    const fake = createGitHubFake();
    await expect(fake.compareDependencies("main", "topic")).rejects.toThrow(
      "github-fake: compareDependencies is not modelled",
    );
    await expect(fake.getIssue(404)).resolves.toBeNull();
    await expect(fake.setLabels(404, [])).rejects.toThrow("#404 does not exist");
  });

  it("refuses a branch commit when the branch moved, as createCommitOnBranch does", async () => {
    const fake = createGitHubFake();
    await fake.createBranch("locus/issue-1", "a".repeat(40));
    const first = await fake.createCommitOnBranch({
      branch: "locus/issue-1",
      expectedHeadOid: "a".repeat(40),
      headline: "one",
      body: "",
      additions: [],
      deletions: [],
    });
    expect(first.ok).toBe(true);
    const stale = await fake.createCommitOnBranch({
      branch: "locus/issue-1",
      expectedHeadOid: "a".repeat(40),
      headline: "two",
      body: "",
      additions: [],
      deletions: [],
    });
    expect(stale).toMatchObject({ ok: false, moved: true });
  });
});
