/**
 * The stale sweep (lib/action/modes/stale.ts) run in process on the typed fake
 * gateway: which issues it claims, re-queues and dispatches, and which it
 * leaves alone, and what its job summary says.
 */
import { describe, expect, it } from "vitest";
import { runStaleMode } from "../../../../lib/action/modes/stale.ts";
import { renderJobSummary } from "../../../../lib/task/job-summary.ts";
import { createGitHubFake, FAKE_EPOCH, type GitHubFake } from "../../../fakes/github-fake.ts";
import { fakeActionContext } from "../../../fakes/action-context.ts";

function statusBody(attempts: number): string {
  return `<!-- locus:status -->\n**Locus:** Working on it.\n<!-- locus:state {"deliveries":[],"attempts":${attempts}} -->`;
}

const minutesAgo = (minutes: number) => new Date(FAKE_EPOCH.getTime() - minutes * 60_000).toISOString();

/** An issue whose status comment, by `author`, was last written `minutes` ago. */
function issueWithStatus(
  fake: GitHubFake,
  fields: { title: string; labels: string[]; milestone?: number },
  attempts: number,
  minutes: number,
  author = "locus[bot]",
): number {
  const issue = fake.seedIssue(fields);
  const comment = fake.seedComment(issue.number, statusBody(attempts), author);
  comment.updatedAt = minutesAgo(minutes);
  issue.updatedAt = minutesAgo(minutes);
  return issue.number;
}

/** The inputs of every workflow dispatch the sweep made. */
const dispatched = (fake: GitHubFake) => fake.callsOf("dispatchWorkflow").map((args) => args[2]);

describe("mode stale, in process", () => {
  it("re-queues stuck and retryable issues, dispatches their work itself, and stops at the budget", async () => {
    const fake = createGitHubFake();
    const sprint = fake.seedMilestone("Sprint S");
    const stuck = issueWithStatus(fake, { title: "Stuck", labels: ["locus:in-progress"] }, 1, 120);
    const fresh = issueWithStatus(fake, { title: "Fresh", labels: ["locus:in-progress"] }, 1, 5);
    const live = issueWithStatus(fake, { title: "Live", labels: ["locus:in-progress"] }, 1, 120);
    const sprintTask = issueWithStatus(
      fake,
      { title: "In a sprint", labels: ["locus:in-progress", "order:1"], milestone: sprint },
      1,
      120,
    );
    const retryable = issueWithStatus(fake, { title: "Failed once", labels: ["locus:failed"] }, 1, 120);
    const exhausted = issueWithStatus(fake, { title: "Failed often", labels: ["locus:failed"] }, 4, 120);
    fake.seedRun({
      name: "locus.yml",
      displayTitle: `Locus issue #${live} (manual)`,
      status: "in_progress",
      conclusion: null,
      event: "workflow_dispatch",
      headBranch: "main",
    });

    const result = await runStaleMode(fakeActionContext(fake));

    expect(fake.labelsOf(stuck)).toContain("locus:queued");
    expect(fake.labelsOf(retryable)).toContain("locus:queued");
    expect(fake.labelsOf(sprintTask)).toEqual(expect.arrayContaining(["locus:queued", "order:1"]));
    expect(fake.labelsOf(fresh)).toEqual(["locus:in-progress"]);
    expect(fake.labelsOf(live)).toEqual(["locus:in-progress"]);
    expect(fake.labelsOf(exhausted)).toEqual(["locus:failed"]);
    expect(dispatched(fake)).toEqual([
      expect.objectContaining({ mode: "issue", issue: String(stuck), delivery: `stale-9001-${stuck}` }),
      expect.objectContaining({ mode: "sprint", milestone: String(sprint) }),
      expect.objectContaining({ mode: "issue", issue: String(retryable) }),
    ]);
    const stuckStatus = (await fake.findCommentByMarker(stuck, "locus:status"))?.body ?? "";
    expect(stuckStatus).toContain("Re-queued by the stale sweep");
    expect(stuckStatus).toContain(`stale-9001-${stuck}`);
    expect((await fake.findCommentByMarker(exhausted, "locus:retry-exhausted"))?.body).toContain(
      "will not retry it on its own",
    );
    expect(result.tasks.map((task) => [task.issue, task.status])).toEqual(
      expect.arrayContaining([
        [stuck, "succeeded"],
        [exhausted, "skipped"],
      ]),
    );

    // A second sweep sees the re-queued issues' dispatched runs, and the exhausted one already told.
    const before = dispatched(fake).length;
    await runStaleMode(fakeActionContext(fake, { runId: "9002" }));
    expect(dispatched(fake)).toHaveLength(before);
    const comments = (await fake.getIssue(exhausted))?.comments ?? [];
    expect(comments.filter((comment) => comment.body.includes("will not retry"))).toHaveLength(1);
  });

  it("claims by taking the status label off, and leaves an issue another sweep claimed first", async () => {
    const fake = createGitHubFake();
    const stuck = issueWithStatus(fake, { title: "Stuck", labels: ["locus:in-progress"] }, 1, 120);
    // The other sweep's claim lands between this sweep's listing and its own: GitHub answers this one 404.
    const racing: GitHubFake = {
      ...fake,
      removeLabel: async (issue, label) => {
        await fake.removeLabel(issue, label);
        return fake.removeLabel(issue, label);
      },
    };
    const result = await runStaleMode(fakeActionContext(racing));
    expect(fake.callsOf("removeLabel")).toEqual([
      [stuck, "locus:in-progress"],
      [stuck, "locus:in-progress"],
    ]);
    expect(dispatched(fake)).toEqual([]);
    expect(fake.callsOf("writeMoment")).toEqual([]);
    expect(result.tasks.map((task) => task.reason)).toEqual(["another sweep took it first"]);
  });

  it("trusts no status Locus did not record: a bare label, or a status comment someone else wrote", async () => {
    const fake = createGitHubFake();
    const bare = fake.seedIssue({ title: "Labelled failed by triage", labels: ["locus:failed"] }).number;
    const forged = issueWithStatus(fake, { title: "Forged", labels: ["locus:in-progress"] }, 1, 120, "tracy");
    const forgedFailed = issueWithStatus(
      fake,
      { title: "Forged failure", labels: ["locus:failed"] },
      1,
      120,
      "tracy",
    );

    const result = await runStaleMode(fakeActionContext(fake));

    expect(dispatched(fake)).toEqual([]);
    expect(fake.callsOf("removeLabel")).toEqual([]);
    expect(fake.labelsOf(bare)).toEqual(["locus:failed"]);
    expect(fake.labelsOf(forged)).toEqual(["locus:in-progress"]);
    expect(fake.labelsOf(forgedFailed)).toEqual(["locus:failed"]);
    expect(result.tasks.map((task) => task.reason)).toEqual(
      expect.arrayContaining([expect.stringContaining("not Locus's")]),
    );
    expect(renderJobSummary("stale", result)).toContain("not Locus's");
  });

  it("dispatches a sprint whose dispatch was lost, and never a waiting task or a sprint stopped by one", async () => {
    const fake = createGitHubFake();
    const lost = fake.seedMilestone("Lost dispatch");
    const queued = issueWithStatus(
      fake,
      { title: "Queued, no run", labels: ["locus:queued", "order:1"], milestone: lost },
      0,
      120,
    );
    const stopped = fake.seedMilestone("Stopped on a question");
    issueWithStatus(
      fake,
      { title: "Asks", labels: ["locus:waiting", "order:1"], milestone: stopped },
      1,
      3000,
    );
    const behind = issueWithStatus(
      fake,
      { title: "Behind it", labels: ["locus:queued", "order:2"], milestone: stopped },
      0,
      3000,
    );
    const waiting = issueWithStatus(
      fake,
      { title: "Waits a day", labels: ["locus:waiting"] },
      1,
      24 * 60 + 5,
    );

    await runStaleMode(fakeActionContext(fake));

    expect(dispatched(fake)).toEqual([
      expect.objectContaining({ mode: "sprint", milestone: String(lost), delivery: `stale-9001-${queued}` }),
    ]);
    expect(fake.labelsOf(queued)).toContain("locus:queued");
    expect(fake.labelsOf(behind)).toContain("locus:queued");
    expect(fake.labelsOf(waiting)).toEqual(["locus:waiting"]);
    // The claim took the label off and the lifecycle put it back, after the status comment recorded the delivery.
    expect(
      fake.calls
        .map((call) => call.member)
        .filter((member) => /removeLabel|writeMoment|createComment|updateComment|dispatch/.test(member)),
    ).toEqual(["removeLabel", "updateComment", "writeMoment", "dispatchWorkflow"]);
  });
});
