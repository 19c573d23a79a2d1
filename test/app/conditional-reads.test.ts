/** An installation's later events re-read the config file conditionally: GitHub answers 304, which costs no rate limit. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newIssue, owner, repo } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness({ config: "version: 3\n" });
});
afterAll(async () => {
  await h.close();
});

function configReads(since: number): number[] {
  return h.sim.requestLog
    .slice(since)
    .filter(
      (entry) =>
        entry.login === h.sim.app.botLogin &&
        entry.method === "GET" &&
        entry.path.includes("/contents/.github%2Flocus.yml"),
    )
    .map((entry) => entry.status);
}

describe("conditional reads across events", () => {
  it("reads the config in full for the first event and gets 304 for the next ones", async () => {
    const before = h.sim.requestLog.length;
    for (const title of ["First", "Second", "Third"]) {
      const issue = await newIssue(h, title);
      await h
        .as("alice")
        .rest.issues.createComment({ owner, repo, issue_number: issue, body: "/locus help" });
      await h.settle();
    }
    expect(configReads(before)).toEqual([200, 304, 304]);
  });
});
