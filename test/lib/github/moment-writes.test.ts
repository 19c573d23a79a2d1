/**
 * A task's moment (labels, status comment, dashboard, a new PR's label) goes
 * out as one GraphQL request when every id is known (the labels a repository
 * lacks created first, once), over REST otherwise, and
 * a new comment in it is created once even when GitHub fails after doing it.
 * Against the simulator over HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import type { Repo } from "../../../sandbox/github-sim/model.ts";
import { installLabels } from "../../../lib/app/install-labels.ts";
import {
  createActionOctokit,
  createGateway,
  labelWrite,
  MomentWriteError,
  type GitHubGateway,
  type TaskIssue,
} from "../../../lib/github/index.ts";
import { startTestSim, type TestSim } from "../../sandbox/github-sim/harness.ts";
import { recordingLog } from "./helpers.ts";

let t: TestSim;
let repo: Repo;
let locus: GitHubGateway;

beforeEach(async () => {
  t = await startTestSim();
  repo = (await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n" } })).repo;
  const log = recordingLog();
  const token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  locus = createGateway({
    octokit: createActionOctokit({
      token,
      baseUrl: t.sim.apiUrl,
      log,
      maxRetries: 3,
      retryUnitMs: 0,
      minWriteIntervalMs: 0,
    }),
    repo: { owner: "acme", repo: "widgets" },
    log,
    ownLogins: [t.sim.app.botLogin],
  });
});
afterEach(() => t.close());

async function traffic<T>(work: () => Promise<T>): Promise<{ sent: string[]; result: T }> {
  const start = t.sim.requestLog.length;
  const result = await work();
  const sent = t.sim.requestLog
    .slice(start)
    .map((e) => `${e.method} ${e.operationName ?? e.path} ${e.status}`);
  return { sent, result };
}

const labelsOf = (number: number) =>
  (repo.issues.get(number)?.labelIds ?? []).map((id) => repo.labels.find((l) => l.id === id)?.name).sort();

/** An issue as the task read gives it: the read also teaches the gateway Locus's label ids. */
async function readIssue(number: number): Promise<TaskIssue> {
  const read = await locus.readTask(number, { managedLabel: "agent:managed" });
  if (!read.issue) throw new Error(`#${number} is not an issue`);
  return read.issue;
}

describe("a moment's writes", () => {
  it("go out as one request once the task read has taught the label ids", async () => {
    await installLabels(locus);
    const created = await locus.createIssue({ title: "Task", labels: ["locus:queued", "p:high"] });
    const status = await locus.createComment(created.number, "Queued.");
    const issue = await readIssue(created.number);

    const { sent, result } = await traffic(() =>
      locus.writeMoment([
        labelWrite(issue, ["locus:in-progress", "p:high"]),
        { kind: "comment", comment: status, body: "Working." },
      ]),
    );

    expect(sent).toEqual(["POST WriteMoment 200"]);
    expect(labelsOf(created.number)).toEqual(["locus:in-progress", "p:high"]);
    expect(repo.comments.find((c) => c.id === status.id)?.body).toBe("Working.");
    expect(result.labels.get(created.number)?.sort()).toEqual(["locus:in-progress", "p:high"]);
  });

  it("create the labels the repository lacks once, in one request, then go out as one request", async () => {
    const created = await locus.createIssue({ title: "Task", labels: ["locus:queued"] });
    const status = await locus.createComment(created.number, "Queued.");
    const issue = await readIssue(created.number);

    const first = await traffic(() =>
      locus.writeMoment([
        labelWrite(issue, ["locus:in-progress"]),
        { kind: "comment", comment: status, body: "Working." },
      ]),
    );
    const later = await traffic(() =>
      locus.writeMoment([
        labelWrite(issue, ["locus:in-review"]),
        { kind: "comment", comment: status, body: "Done." },
      ]),
    );

    expect(first.sent).toEqual(["POST CreateLabels 200", "POST WriteMoment 200"]);
    expect(later.sent).toEqual(["POST WriteMoment 200"]);
    expect(labelsOf(created.number)).toEqual(["locus:in-review"]);
    expect(repo.comments.find((c) => c.id === status.id)?.body).toBe("Done.");
    // Every label a task sets was created, with Locus's colour and description, and none twice.
    const names = repo.labels.map((label) => label.name);
    for (const name of ["locus:waiting", "locus:failed", "locus:done", "agent:managed"])
      expect(names.filter((n) => n === name)).toHaveLength(1);
    expect(repo.labels.find((label) => label.name === "locus:failed")?.color).toBe("d73a4a");
  });

  it("go over REST, one call each, when no read brought the repository's id", async () => {
    const created = await locus.createIssue({ title: "Task", labels: ["locus:queued"] });
    const status = await locus.createComment(created.number, "Queued.");

    const { sent } = await traffic(() =>
      locus.writeMoment([
        labelWrite(created, ["locus:in-progress"]),
        { kind: "comment", comment: status, body: "Working." },
      ]),
    );

    expect(sent).toEqual([
      `PUT /repos/acme/widgets/issues/${created.number}/labels 200`,
      `PATCH /repos/acme/widgets/issues/comments/${status.id} 200`,
    ]);
    expect(labelsOf(created.number)).toEqual(["locus:in-progress"]);
    expect(repo.comments.find((c) => c.id === status.id)?.body).toBe("Working.");
  });

  it("create a new comment once when GitHub fails after making it, and send the rest again", async () => {
    await installLabels(locus);
    const tracking = await locus.createIssue({ title: "Sprint", body: "old dashboard" });
    const created = await locus.createIssue({ title: "Task", labels: ["locus:queued"] });
    const issue = await readIssue(created.number);
    t.sim.faults.add({
      path: /\/graphql$/,
      operationName: "WriteMoment",
      kind: "status",
      status: 502,
      afterApply: true,
      times: 1,
    });

    const { sent, result } = await traffic(() =>
      locus.writeMoment([
        labelWrite(issue, ["locus:in-progress"]),
        { kind: "body", number: tracking.number, nodeId: tracking.nodeId, body: "new dashboard" },
        {
          kind: "new-comment",
          number: created.number,
          nodeId: issue.nodeId,
          body: "<!-- locus:status -->\nWorking.",
        },
      ]),
    );

    expect(sent).toEqual(["POST WriteMoment 502", "POST CommentLanded 200", "POST WriteMoment 200"]);
    expect(repo.comments.filter((c) => c.issueNumber === created.number).map((c) => c.body)).toEqual([
      "<!-- locus:status -->\nWorking.",
    ]);
    expect(repo.issues.get(tracking.number)?.body).toBe("new dashboard");
    expect(labelsOf(created.number)).toEqual(["locus:in-progress"]);
    expect(result.comments.get(created.number)?.author).toBe(t.sim.app.botLogin);
  });

  it("land every write GitHub accepts when it refuses one, and make the comment once", async () => {
    await installLabels(locus);
    const tracking = await locus.createIssue({ title: "Sprint", body: "dashboard" });
    const created = await locus.createIssue({ title: "Task", labels: ["locus:queued"] });
    const issue = await readIssue(created.number);
    const status = "<!-- locus:status -->\nWorking.";
    const tooLong = "x".repeat(70_000);

    // A best-effort write (the sprint dashboard) that GitHub refuses fails nothing else.
    const { sent, result } = await traffic(() =>
      locus.writeMoment([
        labelWrite(issue, ["locus:in-progress"]),
        { kind: "body", number: tracking.number, nodeId: tracking.nodeId, body: tooLong, bestEffort: true },
        { kind: "new-comment", number: created.number, nodeId: issue.nodeId, body: status },
      ]),
    );

    expect(sent[0]).toBe("POST WriteMoment 200");
    expect(labelsOf(created.number)).toEqual(["locus:in-progress"]);
    expect(repo.issues.get(tracking.number)?.body).toBe("dashboard");
    expect(repo.comments.filter((c) => c.issueNumber === created.number).map((c) => c.body)).toEqual([
      status,
    ]);
    expect(result.comments.get(created.number)?.body).toBe(status);

    // Any other refused write is thrown, with what landed, so the comment is never made twice.
    const failing = locus.writeMoment([
      labelWrite(issue, ["locus:failed"]),
      { kind: "body", number: tracking.number, nodeId: tracking.nodeId, body: tooLong },
    ]);
    await expect(failing).rejects.toBeInstanceOf(MomentWriteError);
    expect(labelsOf(created.number)).toEqual(["locus:failed"]);
  });
});
