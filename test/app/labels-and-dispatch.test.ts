import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStatusState } from "../../lib/status/status-comment.ts";
import { owner, repo } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

/** The hidden state of the issue's status comment, as the app wrote it. */
async function statusState(harness: AppHarness, issue: number) {
  const { data: comments } = await harness
    .as("alice")
    .rest.issues.listComments({ owner, repo, issue_number: issue });
  const status = comments.find((c) => c.body?.startsWith("<!-- locus:status -->"));
  return status ? readStatusState(status.body) : undefined;
}

function runsFor(issue: number) {
  return h.repo.repo.runs.filter((run) => run.inputs.issue === String(issue));
}

describe("issues labelled locus:queued", () => {
  it("dispatches mode issue for a standalone issue, once, and records the delivery", async () => {
    const { data: issue } = await h.as("alice").rest.issues.create({ owner, repo, title: "Greet by name" });
    await h
      .as("alice")
      .rest.issues.addLabels({ owner, repo, issue_number: issue.number, labels: ["locus:queued"] });
    await h.settle();

    const runs = runsFor(issue.number);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.inputs).toEqual(expect.objectContaining({ mode: "issue", issue: String(issue.number) }));
    const { data: after } = await h.as("alice").rest.issues.get({ owner, repo, issue_number: issue.number });
    expect(after.labels.map((l) => (typeof l === "string" ? l : l.name)).sort()).toEqual([
      "agent:managed",
      "locus:queued",
    ]);
    const { data: comments } = await h
      .as("alice")
      .rest.issues.listComments({ owner, repo, issue_number: issue.number });
    const status = comments.find((c) => c.body?.startsWith("<!-- locus:status -->"));
    expect(status?.body).toContain(runs[0]?.inputs.delivery);
  });

  it("links the status comment to the run GitHub named in its answer to the dispatch", async () => {
    const { data: issue } = await h.as("alice").rest.issues.create({ owner, repo, title: "Wave" });
    const logged = h.sim.requestLog.length;
    await h
      .as("alice")
      .rest.issues.addLabels({ owner, repo, issue_number: issue.number, labels: ["locus:queued"] });
    await h.settle();

    const [run] = runsFor(issue.number);
    const runUrl = `${h.sim.url}/${owner}/${repo}/actions/runs/${run?.id}`;
    const status = await statusState(h, issue.number);
    expect(status?.runUrl).toBe(runUrl);
    const dispatches = h.sim.requestLog.slice(logged).filter((entry) => entry.path.endsWith("/dispatches"));
    expect(dispatches.map((entry) => entry.status)).toEqual([200]);
  });
});

describe("on a GitHub whose dispatch answers 204 without the run", () => {
  let old: AppHarness;
  beforeAll(async () => {
    old = await startAppHarness({ dispatchRunDetails: false });
  });
  afterAll(async () => {
    await old.close();
  });

  it("dispatches once and records the delivery, with no run link until the run writes one", async () => {
    const { data: issue } = await old.as("alice").rest.issues.create({ owner, repo, title: "Greet" });
    await old
      .as("alice")
      .rest.issues.addLabels({ owner, repo, issue_number: issue.number, labels: ["locus:queued"] });
    await old.settle();

    const runs = old.repo.repo.runs;
    expect(runs).toHaveLength(1);
    const status = await statusState(old, issue.number);
    // The delivery id and a key of the signed body, so a replay under a new id is known too.
    expect(status?.deliveries).toEqual([
      runs[0]?.inputs.delivery,
      expect.stringMatching(/^body-[0-9a-f]{32}$/),
    ]);
    expect(status?.runUrl).toBeUndefined();
  });
});
