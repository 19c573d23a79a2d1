import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

const owner = "octo";
const repo = "demo";

function runsFor(issue: number) {
  return h.sim.store.repos.get("octo/demo")?.runs.filter((run) => run.inputs.issue === String(issue)) ?? [];
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
});
