import { describe, expect, it } from "vitest";
import {
  pullRequestOwner,
  type PullRequestOwnerFacts,
} from "../../../lib/pull-request/pull-request-owner.ts";

const person: PullRequestOwnerFacts = {
  command: "iterate",
  openedByLocus: false,
  headRef: "feature/x",
  fromFork: false,
  humanPrs: false,
};

describe("pullRequestOwner", () => {
  it("is Locus's own PR when Locus opened it on locus/issue-<N>", () => {
    expect(pullRequestOwner({ ...person, openedByLocus: true, headRef: "locus/issue-7" })).toEqual({
      kind: "locus",
      issue: 7,
    });
  });

  it("refuses a person's PR without pr.humanPrs and says how to turn it on", () => {
    const owner = pullRequestOwner(person);
    expect(owner.kind).toBe("refused");
    expect(owner.kind === "refused" && owner.reply).toContain("`pr.humanPrs: true`");
  });

  it("works on a person's PR in the same repository with pr.humanPrs", () => {
    expect(pullRequestOwner({ ...person, humanPrs: true })).toEqual({ kind: "person" });
    expect(pullRequestOwner({ ...person, humanPrs: true, command: "fix-ci" })).toEqual({ kind: "person" });
  });

  it("never rebases a person's PR: that would rewrite their commits", () => {
    const owner = pullRequestOwner({ ...person, humanPrs: true, command: "rebase" });
    expect(owner.kind === "refused" && owner.reply).toContain("rewrites their commits");
  });

  it("refuses a fork's PR even with pr.humanPrs, and even on a locus/issue-<N> branch", () => {
    for (const facts of [
      { ...person, fromFork: true, humanPrs: true },
      { ...person, fromFork: true, openedByLocus: true, headRef: "locus/issue-3" },
    ]) {
      const owner = pullRequestOwner(facts);
      expect(owner.kind === "refused" && owner.reply).toContain("from a fork");
    }
  });
});
