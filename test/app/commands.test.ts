import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPlanComment } from "../../lib/plan/plan-comment.ts";
import { planSchema } from "../../lib/plan/plan-schema.ts";
import { renderReply } from "../../lib/status/reply-marker.ts";
import { renderStatusComment } from "../../lib/status/status-comment.ts";
import { sections, tableRows } from "../lib/render/markdown-structure.ts";
import { appCalls, comment, commentsOf, labelsOf, newIssue, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

/** The issue's last comment is Locus's reply to the comment before it, saying exactly `text`. */
async function expectLastReply(issue: number, text: string): Promise<void> {
  const { data } = await h
    .as("alice")
    .rest.issues.listComments({ owner, repo, issue_number: issue, per_page: 100 });
  const [command, reply] = data.slice(-2);
  expect(reply?.body).toBe(renderReply(Number(command?.id), text));
}

describe("/locus comments", () => {
  it("answers /locus help with every command", async () => {
    const issue = await newIssue(h, "Help me");
    await comment(h, "eve", issue, "/locus help");
    const [reply] = await commentsOf(h, issue).then((all) => all.slice(1));
    expect(reply).toContain("**Locus commands**");
    for (const verb of [
      "run",
      "iterate",
      "review",
      "plan",
      "approve",
      "ask",
      "order",
      "status",
      "help",
      "cancel",
    ]) {
      expect(reply).toContain(`/locus ${verb}`);
    }
  });

  it("replies with the right usage to a malformed command and changes nothing", async () => {
    const issue = await newIssue(h, "Typo");
    const before = h.sim.requestLog.length;
    await comment(h, "alice", issue, "/locus itterate please");
    const replies = (await commentsOf(h, issue)).slice(1);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain("Did you mean `/locus iterate`?");
    expect(
      appCalls(h, before).filter((call) => !call.startsWith("GET") && !call.includes("access_tokens")),
    ).toEqual([`POST /repos/${owner}/${repo}/issues/${issue}/comments`]);
  });

  it("makes no write at all for /locus in a code block or a quote", async () => {
    const issue = await newIssue(h, "Docs");
    const before = h.sim.requestLog.length;
    await comment(
      h,
      "alice",
      issue,
      "Try this:\n\n```\n/locus run\n```\n\n> /locus run\n\nand `/locus run`.",
    );
    expect(
      appCalls(h, before).filter((call) => !call.startsWith("GET") && !call.includes("access_tokens")),
    ).toEqual([]);
    expect(await commentsOf(h, issue)).toHaveLength(1);
  });

  it("queues on /locus run from a writer, with a reaction, and refuses a reader", async () => {
    const issue = await newIssue(h, "Run me");
    await comment(h, "eve", issue, "/locus run");
    expect(runs(h).filter((run) => run.inputs.issue === String(issue))).toHaveLength(0);
    expect((await commentsOf(h, issue)).at(-1)).toContain(
      "@eve Locus only takes work from people with write access",
    );

    await comment(h, "alice", issue, "/locus run");
    const dispatched = runs(h).filter((run) => run.inputs.issue === String(issue));
    expect(dispatched.map((run) => run.inputs.mode)).toEqual(["issue"]);
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:queued"]);
    const { data: comments } = await h
      .as("alice")
      .rest.issues.listComments({ owner, repo, issue_number: issue });
    const command = comments.find((c) => c.body === "/locus run" && c.user?.login === "alice");
    const { data: reactions } = await h.as("alice").rest.reactions.listForIssueComment({
      owner,
      repo,
      comment_id: command?.id ?? 0,
    });
    expect(reactions.map((r) => r.content)).toEqual(["eyes"]);
  });

  it("says so when an issue is already being worked on", async () => {
    const issue = await newIssue(h, "Busy", { labels: ["locus:in-progress"] });
    await comment(h, "alice", issue, "/locus run");
    await expectLastReply(issue, "Not queued: Locus is already working on it.");
    expect(await labelsOf(h, issue)).toEqual(["locus:in-progress"]);
  });

  it("takes off a `locus:queued` label put on work in review, and says how to reopen it", async () => {
    const issue = await newIssue(h, "Reviewed", { labels: ["locus:in-review", "agent:managed"] });
    await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
    await h.settle();
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:in-review"]);
    expect((await commentsOf(h, issue)).at(-1)).toBe(
      "Not queued: It is `locus:in-review`; reopen the work by commenting `/locus iterate` on its pull request.",
    );
    expect(runs(h).filter((run) => run.inputs.issue === String(issue))).toEqual([]);
  });

  it("dispatches again, on /locus run, a queued issue the daily cost cap held", async () => {
    // Queued by Locus itself (its own events start nothing), then held by the cap.
    const { number: issue } = await h.repo.issue(
      { title: "Held", labels: ["locus:queued", "agent:managed"] },
      { as: h.sim.app.botLogin },
    );
    const state = { deliveries: [], attempts: 0, capRefused: "2026-11-23" };
    const body = renderStatusComment({ headline: "Not started: the daily cap." }, state);
    await h.repo.comment(issue, `<!-- locus:status -->\n${body}`, { as: h.sim.app.botLogin });
    const before = runs(h).length;
    await comment(h, "alice", issue, "/locus run");
    expect(
      runs(h)
        .slice(before)
        .map((run) => [run.inputs.mode, run.inputs.issue]),
    ).toEqual([["issue", String(issue)]]);
    expect(await labelsOf(h, issue)).toEqual(["agent:managed", "locus:queued"]);
  });

  it("dispatches /locus plan and /locus ask with the comment's text", async () => {
    const issue = await newIssue(h, "Auth epic");
    await comment(h, "alice", issue, "/locus plan Add login\nwith OAuth too");
    await comment(h, "alice", issue, "/locus ask Where is the session stored?");
    const dispatched = runs(h).filter((run) => run.inputs.issue === String(issue));
    expect(dispatched.map((run) => [run.inputs.mode, run.inputs.command])).toEqual([
      ["plan", "Add login\nwith OAuth too"],
      ["ask", "Where is the session stored?"],
    ]);
  });

  it("creates the planned issues on /locus approve, in the confirmed order, and never twice", async () => {
    const issue = await newIssue(h, "Plan here");
    const plan = planSchema.parse({
      sprint: "Auth sprint",
      tasks: [
        { title: "User model", type: "feature", priority: "high" },
        { title: "Login page", dependsOn: [1] },
        { title: "Docs", type: "docs" },
      ],
    });
    await h.repo.comment(issue, renderPlanComment(plan), { as: h.sim.app.botLogin });
    await comment(h, "alice", issue, "/locus approve 1,3,2");
    const { data: milestones } = await h
      .as("alice")
      .rest.issues.listMilestones({ owner, repo, state: "all" });
    const milestone = milestones.find((m) => m.title === "Auth sprint");
    expect(milestone).toBeDefined();
    const listCreated = async () =>
      (
        await h
          .as("alice")
          .rest.issues.listForRepo({ owner, repo, milestone: String(milestone?.number), state: "all" })
      ).data;
    const created = await listCreated();
    expect(created.map((i) => i.title).sort()).toEqual(["Docs", "Login page", "User model"]);
    const orderOf = (title: string) =>
      created
        .find((i) => i.title === title)
        ?.labels.map((l) => (typeof l === "string" ? l : l.name))
        .find((n) => n?.startsWith("order:"));
    expect([orderOf("User model"), orderOf("Docs"), orderOf("Login page")]).toEqual([
      "order:1",
      "order:2",
      "order:3",
    ]);
    const login = created.find((i) => i.title === "Login page");
    const model = created.find((i) => i.title === "User model");
    expect(login?.body).toContain(`**Depends on:** #${model?.number}`);
    expect((await commentsOf(h, issue)).at(-1)).toContain("Created #");

    await comment(h, "alice", issue, "/locus approve 1,3,2");
    expect(await listCreated()).toHaveLength(3);
  });

  it("continues after the highest order when approving into an existing milestone", async () => {
    const { data: existing } = await h
      .as("alice")
      .rest.issues.createMilestone({ owner, repo, title: "Growing sprint" });
    await h.settle();
    const first = await newIssue(h, "already here", { milestone: existing.number });
    const pinned = await newIssue(h, "pinned", { milestone: existing.number, labels: ["order:4"] });
    expect(await labelsOf(h, first)).toEqual(["order:1"]);
    expect(await labelsOf(h, pinned)).toEqual(["order:4"]);
    const issue = await newIssue(h, "More plan");
    const plan = planSchema.parse({
      sprint: "Growing sprint",
      tasks: [{ title: "Next one" }, { title: "Last one" }],
    });
    await h.repo.comment(issue, renderPlanComment(plan), { as: h.sim.app.botLogin });
    await comment(h, "alice", issue, "/locus approve");
    const { data: created } = await h
      .as("alice")
      .rest.issues.listForRepo({ owner, repo, milestone: String(existing.number), state: "all" });
    const orderOf = (title: string) =>
      created
        .find((i) => i.title === title)
        ?.labels.map((l) => (typeof l === "string" ? l : l.name))
        .find((n) => n?.startsWith("order:"));
    expect([orderOf("already here"), orderOf("pinned"), orderOf("Next one"), orderOf("Last one")]).toEqual([
      "order:1",
      "order:4",
      "order:5",
      "order:6",
    ]);
  });

  it("refuses an approve order that breaks a dependency", async () => {
    const issue = await newIssue(h, "Plan two");
    const plan = planSchema.parse({ sprint: "S2", tasks: [{ title: "A" }, { title: "B", dependsOn: [1] }] });
    await h.repo.comment(issue, renderPlanComment(plan), { as: h.sim.app.botLogin });
    await comment(h, "alice", issue, "/locus approve 2,1");
    await expectLastReply(issue, "Task 2 (B) depends on task 1, which this order runs after it.");
  });

  it("reorders a sprint with /locus order; /locus status there finds no sprint work yet", async () => {
    const { data: milestone } = await h
      .as("alice")
      .rest.issues.createMilestone({ owner, repo, title: "Reorder" });
    const a = await newIssue(h, "A", { milestone: milestone.number });
    const b = await newIssue(h, "B", { milestone: milestone.number });
    const c = await newIssue(h, "C", { milestone: milestone.number });
    expect([await labelsOf(h, a), await labelsOf(h, b), await labelsOf(h, c)]).toEqual([
      ["order:1"],
      ["order:2"],
      ["order:3"],
    ]);
    await comment(h, "alice", a, `/locus order #${c}, #${a} #${b}`);
    expect([await labelsOf(h, c), await labelsOf(h, a), await labelsOf(h, b)]).toEqual([
      ["order:1"],
      ["order:2"],
      ["order:3"],
    ]);
    await expectLastReply(a, `New order: \`order:1\` #${c}, \`order:2\` #${a}, \`order:3\` #${b}.`);

    await comment(h, "alice", a, `/locus order ${a}`);
    await expectLastReply(a, `The new order must list every task not yet completed; missing: #${b}, #${c}.`);

    await comment(h, "eve", b, "/locus status");
    const summary = sections((await commentsOf(h, b)).at(-1) ?? "");
    expect(summary.get("")?.split("\n\n")).toEqual([
      `## Locus status: ${owner}/${repo}`,
      `\\#${b} is not queued. Label it \`locus:queued\` or comment \`/locus run\` to start work.`,
    ]);
    // No issue of the milestone has a Locus status yet: it is not a sprint in progress.
    const sprints = [...summary].find(([heading]) => heading.startsWith("Active sprints"))?.[1] ?? "";
    expect(tableRows(sprints).map((row) => row[0])).not.toContainEqual(expect.stringContaining("[Reorder]"));
  });

  it("cancels the live run and clears the status, so no sweep retries it", async () => {
    const issue = await newIssue(h, "Long job");
    h.runsConclude("hold");
    await h.as("alice").rest.issues.createComment({ owner, repo, issue_number: issue, body: "/locus run" });
    await h.settleWebhooks();
    const run = runs(h).find((r) => r.inputs.issue === String(issue));
    expect(run?.status).toBe("in_progress");
    await comment(h, "alice", issue, "/locus cancel");
    h.runsConclude("success");
    expect(runs(h).find((r) => r.id === run?.id)?.conclusion).toBe("cancelled");
    expect(await labelsOf(h, issue)).toEqual(["agent:managed"]);
    expect((await commentsOf(h, issue)).at(-1)).toContain("Cancelled by @alice");
    expect((await commentsOf(h, issue)).at(-1)).toContain("will not retry it on its own");
    // The cancelled run's workflow_run event marks nothing failed either.
    expect(await labelsOf(h, issue)).not.toContain("locus:failed");
  });
});
