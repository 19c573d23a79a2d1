/**
 * The app's reconciler (lib/triggers/reconcile.ts) on the typed fake gateway,
 * in process: what it dispatches again and what it marks failed, and that a
 * second pass repairs nothing twice.
 */
import { describe, expect, it } from "vitest";
import type { AppContext } from "../../../lib/app/app-context.ts";
import { reconcileRepository } from "../../../lib/triggers/reconcile.ts";
import { defaultConfig } from "../../../lib/config/index.ts";
import type { Log } from "../../../lib/github/index.ts";
import { createGitHubFake, type GitHubFake } from "../../fakes/github-fake.ts";

const quiet: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The fake on a clock the test moves, and the app's context around it. */
function world() {
  let clock = new Date("2026-11-24T12:00:00Z");
  const fake = createGitHubFake({ self: "locus-bot", clock: { now: () => clock } });
  const context = (): AppContext => ({
    gateway: fake,
    config: defaultConfig(),
    delivery: "unused",
    redeliveryRequested: () => false,
    defaultBranch: "main",
    log: quiet,
    selfLogins: ["locus-bot"],
    permissionOf: () => Promise.resolve("write"),
    now: () => clock,
  });
  const advance = (minutes: number) => void (clock = new Date(clock.getTime() + minutes * 60_000));
  return { fake, context, advance };
}

/** Every dispatched run ends, as the simulator's runner ends them: the delivery "doomed" fails. */
function settle(fake: GitHubFake): void {
  for (const run of fake.store.workflowRuns) {
    if (run.status === "completed") continue;
    run.status = "completed";
    run.conclusion = run.displayTitle.endsWith("(doomed)") ? "failure" : "success";
  }
}

const dispatches = (fake: GitHubFake, key: "issue" | "milestone", number: number) =>
  fake
    .callsOf("dispatchWorkflow")
    .map((args) => args[2])
    .filter((inputs): inputs is Record<string, string> => typeof inputs === "object" && inputs !== null)
    .filter((inputs) => inputs[key] === String(number));

describe("reconciler", () => {
  it("dispatches a queued standalone issue no run picked up, once, after the grace period", async () => {
    const { fake, context, advance } = world();
    const issue = fake.seedIssue({ title: "lost", labels: ["locus:queued"] });
    expect((await reconcileRepository(context(), 10)).redispatched).toEqual([]);

    advance(11);
    expect((await reconcileRepository(context(), 10)).redispatched).toEqual([issue.number]);
    settle(fake);
    expect(dispatches(fake, "issue", issue.number)).toHaveLength(1);
    expect(dispatches(fake, "issue", issue.number)[0]?.["delivery"]).toMatch(/^reconcile-\d+-\d+$/);

    advance(60);
    expect((await reconcileRepository(context(), 10)).redispatched).toEqual([]);
    expect(dispatches(fake, "issue", issue.number)).toHaveLength(1);
  });

  it("leaves a queued issue alone while its status comment is recent, and sprint issues to their sprint", async () => {
    const { fake, context } = world();
    const ctx = context();
    const fresh = fake.seedIssue({ title: "fresh", labels: ["locus:queued"] });
    await ctx.gateway.createComment(fresh.number, "<!-- locus:status -->\n**Locus:** Queued");
    const milestone = fake.seedMilestone("S");
    const inSprint = fake.seedIssue({ title: "sprint", labels: ["locus:queued"], milestone });
    const report = await reconcileRepository(ctx, 10);
    expect(report.redispatched).not.toContain(fresh.number);
    expect(report.redispatched).not.toContain(inSprint.number);
  });

  it("dispatches the sprint of a queued milestone issue whose dispatch was lost, once, unless the sprint is stopped", async () => {
    const { fake, context, advance } = world();
    const ctx = context();
    const milestone = fake.seedMilestone("Lost");
    const lost = fake.seedIssue({ title: "lost", labels: ["locus:queued", "order:1"], milestone });
    const stopped = fake.seedMilestone("Stopped");
    fake.seedIssue({ title: "asks", labels: ["locus:waiting", "order:1"], milestone: stopped });
    const behind = fake.seedIssue({
      title: "behind",
      labels: ["locus:queued", "order:2"],
      milestone: stopped,
    });

    advance(11);
    const report = await reconcileRepository(ctx, 10);
    settle(fake);

    expect(report.redispatched).toContain(lost.number);
    expect(report.redispatched).not.toContain(behind.number);
    expect(dispatches(fake, "milestone", milestone).map((inputs) => inputs["delivery"])).toEqual([
      expect.stringMatching(/^reconcile-\d+-\d+$/),
    ]);
    expect(dispatches(fake, "milestone", stopped)).toHaveLength(0);

    advance(60);
    expect((await reconcileRepository(ctx, 10)).redispatched).not.toContain(lost.number);
    expect(dispatches(fake, "milestone", milestone)).toHaveLength(1);
  });

  it("marks failed an in-progress issue whose run failed without saying so", async () => {
    const { fake, context } = world();
    const ctx = context();
    const issue = fake.seedIssue({ title: "crashed", labels: ["locus:in-progress", "agent:managed"] });
    await ctx.gateway.dispatchWorkflow("locus.yml", "main", {
      mode: "issue",
      issue: String(issue.number),
      delivery: "doomed",
    });
    settle(fake);
    const report = await reconcileRepository(ctx, 10);
    expect(report.markedFailed).toEqual([issue.number]);
    const after = await ctx.gateway.getIssue(issue.number);
    expect(after?.labels.sort()).toEqual(["agent:managed", "locus:failed"]);
    expect(after?.comments.at(-1)?.body).toContain("ended with `failure`");
    expect((await reconcileRepository(ctx, 10)).markedFailed).toEqual([]);
  });
});
