/**
 * Ask, plan and review past the daily cost cap (`agent.maxCostPerDayUsd`), run
 * in process on the typed fake gateway: each replies with the cap and when it
 * resets, and asks no model (the agent runner and checkout fail the test if
 * reached). The run just under the cap, which spends what remains, is
 * read-only-modes-trigger.test.ts, in a task world.
 */
import { describe, expect, it } from "vitest";
import { runMode } from "../../../../lib/action/run-mode.ts";
import { loadConfig } from "../../../../lib/config/index.ts";
import type { ModeRequest } from "../../../../lib/dispatch/mode-request.ts";
import { STATUS_MARKER, renderStatusComment } from "../../../../lib/status/status-comment.ts";
import { createGitHubFake, FAKE_EPOCH, type GitHubFake } from "../../../fakes/github-fake.ts";
import { fakeActionContext, refusingAgentAndCheckout } from "../../../fakes/action-context.ts";

const CAP_USD = 5;

/** Locus's status comment on an earlier task, recording what was spent today. */
function spentToday(fake: GitHubFake, usd: number): void {
  const earlier = fake.seedIssue({ title: "Earlier task", labels: ["agent:managed"] }).number;
  const state = {
    deliveries: [],
    attempts: 1,
    daySpend: { day: FAKE_EPOCH.toISOString().slice(0, 10), usd },
  };
  fake.seedComment(
    earlier,
    `<!-- ${STATUS_MARKER} -->\n${renderStatusComment({ headline: "Done." }, state)}`,
    fake.store.self,
  );
}

function cappedContext(fake: GitHubFake, command: string) {
  const loaded = loadConfig(`version: 3\nagent:\n  maxCostPerDayUsd: ${CAP_USD}\n`);
  if (!loaded.ok) throw new Error("test config did not load");
  return refusingAgentAndCheckout({ ...fakeActionContext(fake, { config: loaded.config }), command });
}

describe("ask, plan and review past the daily cost cap, in process", () => {
  it.each([
    { mode: "ask", says: "Locus did not answer the question: the daily cost cap of $5.00" },
    { mode: "plan", says: "Locus did not make a plan: the daily cost cap of $5.00" },
    { mode: "review", says: "Locus did not review this pull request: the daily cost cap of $5.00" },
  ] as const)("$mode replies with the cap and when it resets, and asks no model", async ({ mode, says }) => {
    const fake = createGitHubFake({ permissions: { alice: "write" } });
    spentToday(fake, CAP_USD);
    const number = fake.seedIssue({
      title: `Capped ${mode}`,
      body: "Anything.",
      ...(mode === "review"
        ? {
            pull: {
              head: { ref: "feature/capped", sha: "2".repeat(40) },
              base: { ref: "main" },
              merged: false,
              draft: false,
              diff: "",
              reviews: [],
              threads: [],
              fromFork: false,
            },
          }
        : {}),
    }).number;
    const ctx = cappedContext(fake, mode === "ask" ? "What is this?" : "");
    const request: ModeRequest =
      mode === "review"
        ? { mode, pr: number }
        : mode === "plan"
          ? { mode, issue: number }
          : { mode, issue: number };

    const result = await runMode(ctx, request);

    expect(result.tasks.map((task) => task.status)).toEqual(["failed"]);
    expect(ctx.reached).toEqual([]);
    const last = (await fake.getIssue(number))?.comments.at(-1)?.body ?? "";
    expect(last).toContain(says);
    expect(last).toContain("resets at 00:00 UTC");
  });
});
