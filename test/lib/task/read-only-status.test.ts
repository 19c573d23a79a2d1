/**
 * A read-only run's status (lib/task/read-only-status.ts: plan, review, ask)
 * on the typed fake gateway: it shows its headline and run link as it
 * starts, adds its cost as it ends, and moves no status label.
 */
import { describe, expect, it } from "vitest";
import { startReadOnlyStatus } from "../../../lib/task/read-only-status.ts";
import { readStatusRecord } from "../../../lib/status/status-store.ts";
import { createGitHubFake } from "../../fakes/github-fake.ts";

const RUN = "https://github.test/acme/widgets/actions/runs/77";

function planned(costUsd?: number) {
  const fake = createGitHubFake({ clock: { now: () => new Date("2026-04-02T12:00:00Z") } });
  const issue = fake.seedIssue({ title: "Plan this", labels: ["locus:in-review", "agent:managed"] });
  if (costUsd !== undefined) {
    fake.seedComment(
      issue.number,
      `<!-- locus:status -->\n**Locus:** Done.\n<!-- locus:state {"deliveries":["d-1"],"attempts":1,"costUsd":${costUsd}} -->`,
      "locus[bot]",
    );
  }
  const ctx = {
    gateway: fake,
    clock: fake.store.clock,
    run: {
      id: "77",
      url: RUN,
      worktreeRoot: "/tmp",
      actor: "alice",
      repositoryUrl: "https://github.test/acme/widgets",
    },
    mask: (text: string) => text,
  };
  return { fake, issue: issue.number, ctx };
}

describe("a read-only run's status", () => {
  it("creates the status comment as it starts, then edits it with the run's cost, moving no label", async () => {
    const { fake, issue, ctx } = planned();
    const status = await startReadOnlyStatus(ctx, issue, "Planning…");
    const started = await readStatusRecord(fake, issue);
    expect(started.comment?.body).toContain("Planning…");
    expect(started.state.runUrl).toBe(RUN);

    await status.finish("Plan posted.", 0.25);

    const finished = await readStatusRecord(fake, issue);
    expect(finished.comment?.id).toBe(started.comment?.id);
    expect(finished.comment?.body).toContain("Plan posted.");
    expect(finished.state).toMatchObject({ costUsd: 0.25, daySpend: { day: "2026-04-02", usd: 0.25 } });
    expect(fake.labelsOf(issue)).toEqual(["agent:managed", "locus:in-review"]);
    // One comment made, then edited in place: never a second status comment.
    expect(fake.callsOf("createComment")).toHaveLength(1);
    expect(fake.callsOf("updateComment")).toHaveLength(1);
  });

  it("adds an answer's cost to the day only, keeps the task's earlier record, and posts why it produced nothing", async () => {
    const { fake, issue, ctx } = planned(1.5);
    const status = await startReadOnlyStatus(ctx, issue, undefined, false);
    expect(fake.callsOf("updateComment")).toEqual([]);

    await status.finish("Answered.", 0.1, "The question was already answered above.");

    const record = await readStatusRecord(fake, issue);
    expect(record.state).toMatchObject({
      costUsd: 1.5,
      deliveries: ["d-1"],
      attempts: 1,
      daySpend: { usd: 0.1 },
    });
    const comments = (await fake.getIssue(issue))?.comments ?? [];
    expect(comments.map((comment) => comment.body.split("\n")[0])).toEqual([
      "<!-- locus:status -->",
      "The question was already answered above.",
    ]);
  });
});
