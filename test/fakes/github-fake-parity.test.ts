/**
 * The typed fake (github-fake.ts) and the real gateway on the simulator, put
 * through one scenario of the writes Locus's lifecycle makes: both must answer
 * the same, so the fake cannot drift from GitHub's behaviour silently. Starts
 * the simulator, so it runs in the integration project.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { labelWrite, type GitHubGateway } from "../../lib/github/index.ts";
import { startTestSim, type TestSim } from "../sandbox/github-sim/harness.ts";
import { recordingLog, simulatorGateway } from "../lib/github/helpers.ts";
import { createGitHubFake } from "./github-fake.ts";

let t: TestSim;
let real: GitHubGateway;
let bot: string;

beforeEach(async () => {
  t = await startTestSim();
  await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n" } });
  const log = recordingLog();
  const token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  bot = t.sim.app.botLogin;
  real = simulatorGateway({
    apiUrl: t.sim.apiUrl,
    token,
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: [bot],
    log,
  });
});
afterEach(() => t.close());

const sorted = (labels: readonly string[] | undefined) => [...(labels ?? [])].sort();

/** A task's life in gateway calls, and what GitHub answered at each step. */
async function lifecycleScenario(gateway: GitHubGateway) {
  const created = await gateway.createIssue({
    title: "Task",
    body: "Do it.",
    labels: ["locus:queued", "p:high"],
  });
  const status = await gateway.createComment(created.number, "<!-- locus:status -->\nQueued.");
  const read = await gateway.readTask(created.number, { managedLabel: "agent:managed" });
  if (!read.issue) throw new Error("the task read found no issue");
  const moment = await gateway.writeMoment([
    labelWrite(read.issue, ["locus:in-progress", "p:high", "agent:managed"]),
    { kind: "comment", comment: status, body: "<!-- locus:status -->\nWorking." },
    { kind: "new-comment", number: created.number, body: "A question." },
  ]);
  const claims = [
    await gateway.removeLabel(created.number, "p:high"),
    await gateway.removeLabel(created.number, "p:high"),
  ];
  const sticky = await gateway.findCommentByMarker(created.number, "locus:status");
  const upserts = [
    (await gateway.upsertComment(created.number, "locus:note", "one")).action,
    (await gateway.upsertComment(created.number, "locus:note", "one")).action,
    (await gateway.upsertComment(created.number, "locus:note", "two")).action,
  ];
  const set = await gateway.setLabels(created.number, ["locus:done", "agent:managed"]);
  const done = await gateway.listIssues({ state: "open", labels: ["locus:done"] });
  const after = await gateway.getIssue(created.number);
  const reread = await gateway.readTask(created.number, { managedLabel: "agent:managed" });
  return {
    created: {
      title: created.title,
      body: created.body,
      labels: sorted(created.labels),
      state: created.state,
    },
    readLabels: sorted(read.issue.labels),
    momentLabels: sorted(moment.labels.get(created.number)),
    momentComment: moment.comments.get(created.number)?.body,
    claims,
    sticky: sticky?.body,
    upserts,
    set: sorted(set),
    done: done.map((issue) => issue.number),
    after: { labels: sorted(after?.labels), comments: after?.comments.map((comment) => comment.body) },
    statusEdited: reread.issue?.comments[0]?.history.lastEditedAt !== null,
    isPullRequest: reread.isPullRequest,
  };
}

/** Milestone moves as a sprint reads them: who put each issue where it is, from its timeline. */
async function milestoneScenario(gateway: GitHubGateway) {
  const first = await gateway.createMilestone({ title: "Sprint A" });
  const second = await gateway.createMilestone({ title: "Sprint B" });
  const born = await gateway.createIssue({ title: "Born in A", milestone: first.number });
  const moved = await gateway.createIssue({ title: "Moved to B" });
  await gateway.updateIssue(moved.number, { milestone: second.number });
  await gateway.updateIssue(moved.number, { milestone: second.number });
  const sprint = await gateway.readSprint(second.number, { managedLabel: "agent:managed" });
  const events = async (number: number) =>
    ((await gateway.readTask(number, { managedLabel: "agent:managed" })).issue?.timeline?.events ?? [])
      .filter((event) => event.kind === "milestoned")
      .map((event) => ({
        kind: event.kind,
        actor: event.actor,
        title: "milestoneTitle" in event ? event.milestoneTitle : "",
      }));
  return {
    born: await events(born.number),
    moved: await events(moved.number),
    sprint: sprint.issues.map((issue) => issue.title),
  };
}

describe("the typed fake", () => {
  it("records milestone moves with their actor, as GitHub's timeline does", async () => {
    const expected = await milestoneScenario(real);
    const faked = await milestoneScenario(createGitHubFake({ self: bot }));
    expect(faked).toEqual(expected);
    expect(expected.moved).toEqual([{ kind: "milestoned", actor: bot, title: "Sprint B" }]);
  });

  it("answers a task's lifecycle writes as the real gateway on the simulator does", async () => {
    const expected = await lifecycleScenario(real);
    const faked = await lifecycleScenario(createGitHubFake({ self: bot }));
    expect(faked).toEqual(expected);
    expect(expected.claims).toEqual([true, false]);
  });
});
