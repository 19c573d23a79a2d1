/**
 * Write retries (docs/reliability.md) through the real app: GitHub
 * carries out the workflow dispatch and the status comment a queued issue
 * causes, then answers 502 or drops the connection. The app's retries must
 * find them rather than start a second run or post a second status comment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentsOf, newIssue, owner, repo, runs } from "../app/github-helpers.ts";
import { startAppHarness, type AppHarness } from "../app/harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

const DISPATCHES = "/repos/*/*/actions/workflows/*/dispatches";
const COMMENTS = "/repos/*/*/issues/*/comments";

const runsOf = (issue: number) => runs(h).filter((run) => run.inputs.issue === String(issue));
const statusCommentsOf = async (issue: number) =>
  (await commentsOf(h, issue)).filter((body) => body.startsWith("<!-- locus:status -->"));

const DISPATCHED = `POST /repos/${owner}/${repo}/actions/workflows/locus.yml/dispatches`;
const RUNS_LISTED = `GET /repos/${owner}/${repo}/actions/workflows/locus.yml/runs`;
// An unchanged list answers a conditional re-read with 304: a look all the same.
const RUNS_LOOKED_AT = `${RUNS_LISTED} (200 or 304)`;
const COMMENTS_LOOKED_AT = "POST CommentLanded 200";
const commented = (issue: number) => `POST /repos/${owner}/${repo}/issues/${issue}/comments`;

/**
 * Queues the issue as a person would; answers the creates sent meanwhile and
 * the looks for what they created, as `METHOD path status`.
 */
async function queue(issue: number): Promise<string[]> {
  const before = h.sim.requestLog.length;
  await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
  await h.settle();
  return h.sim.requestLog
    .slice(before)
    .map((e) => `${e.method} ${e.operationName ?? e.path} ${e.status}`)
    .map((call) => (/ (200|304)$/.test(call) && call.startsWith(`${RUNS_LISTED} `) ? RUNS_LOOKED_AT : call))
    .filter(
      (call) =>
        call.startsWith(DISPATCHED) ||
        call.startsWith(commented(issue)) ||
        call === RUNS_LOOKED_AT ||
        call === COMMENTS_LOOKED_AT,
    );
}

describe("a create GitHub carried out before failing", () => {
  it.each(["status", "drop"] as const)(
    "dispatch and status comment each applied, then failed (%s): one run, one status comment",
    async (kind) => {
      const issue = await newIssue(h, `Applied then ${kind}`);
      const fault = { method: "POST", kind, status: 502, afterApply: true, times: 1 } as const;
      const dispatchFault = h.sim.faults.add({ ...fault, path: DISPATCHES });
      const commentFault = h.sim.faults.add({ ...fault, path: COMMENTS });

      const creates = await queue(issue);

      expect([dispatchFault.fired, commentFault.fired]).toEqual([1, 1]);
      expect(runsOf(issue)).toHaveLength(1);
      expect(await statusCommentsOf(issue)).toHaveLength(1);
      // Each failure was followed by a look, never by a second create.
      const failed = kind === "drop" ? 0 : 502;
      expect(creates).toEqual([
        `${DISPATCHED} ${failed}`,
        RUNS_LOOKED_AT,
        `${commented(issue)} ${failed}`,
        COMMENTS_LOOKED_AT,
      ]);
    },
  );

  it("dispatch and status comment failed before GitHub carried them out: created once on the retry", async () => {
    const issue = await newIssue(h, "Not applied");
    h.sim.faults.add({ method: "POST", path: DISPATCHES, kind: "status", status: 502, times: 1 });
    h.sim.faults.add({ method: "POST", path: COMMENTS, kind: "status", status: 502, times: 1 });

    const creates = await queue(issue);

    expect(runsOf(issue)).toHaveLength(1);
    expect(await statusCommentsOf(issue)).toHaveLength(1);
    expect(creates).toEqual([
      `${DISPATCHED} 502`,
      RUNS_LOOKED_AT,
      `${DISPATCHED} 200`,
      `${commented(issue)} 502`,
      COMMENTS_LOOKED_AT,
      `${commented(issue)} 201`,
    ]);
  });
});
