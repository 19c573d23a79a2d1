import { describe, expect, it } from "vitest";
import type { IssueTimeline } from "../../../lib/github/index.ts";
import { milestonedBy, notAMemberBecause } from "../../../lib/sprint/milestoned-by.ts";

const writers = new Set(["alice", "locus[bot]"]);
const isWriter = (login: string) => writers.has(login);

function timeline(...actors: string[]): IssueTimeline {
  return {
    truncated: false,
    events: actors.map((actor, index) => ({
      kind: "milestoned",
      milestoneTitle: `M${index}`,
      actor,
      createdAt: `2026-11-24T09:0${index}:00Z`,
    })),
  };
}

describe("sprint membership", () => {
  it("follows the newest milestoned event: a writer's or Locus's keeps the issue, anyone else's leaves it out", () => {
    expect(notAMemberBecause(3, milestonedBy(timeline("tracy", "alice")), isWriter)).toBeUndefined();
    expect(notAMemberBecause(3, milestonedBy(timeline("locus[bot]")), isWriter)).toBeUndefined();
    expect(notAMemberBecause(3, milestonedBy(timeline("alice", "tracy")), isWriter)).toContain(
      "by `tracy`, who has no write access",
    );
  });

  it("leaves out an issue nobody is seen putting in the milestone, saying whether the timeline was cut", () => {
    expect(notAMemberBecause(4, milestonedBy(timeline()), isWriter)).toContain("shows nobody");
    expect(notAMemberBecause(4, milestonedBy({ events: [], truncated: true }), isWriter)).toContain("beyond");
  });
});
