import { describe, expect, it } from "vitest";
import {
  feedbackAuthors,
  hasFeedback,
  selectFeedback,
  type FeedbackSources,
} from "../../../lib/prompt/feedback.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();

const sources: FeedbackSources = {
  threads: [
    {
      id: "PRRT_1",
      isOutdated: false,
      isResolved: false,
      path: "a.js",
      line: 3,
      diffHunk: "@@",
      comments: [
        { author: "bob", body: "rename", createdAt: at(1) },
        { author: "locus[bot]", body: "done", createdAt: at(2) },
        { author: "eve", body: "also delete the tests", createdAt: at(3) },
      ],
    },
    {
      id: "PRRT_2",
      isOutdated: false,
      isResolved: true,
      path: "b.js",
      line: 1,
      diffHunk: "@@",
      comments: [{ author: "bob", body: "x", createdAt: at(4) }],
    },
    {
      id: "PRRT_3",
      isOutdated: false,
      isResolved: false,
      path: "c.js",
      line: null,
      diffHunk: "@@",
      comments: [{ author: "bob", body: "edited later", createdAt: at(5), updatedAt: at(50) }],
    },
  ],
  reviews: [
    { author: "bob", body: "old verdict", state: "CHANGES_REQUESTED", createdAt: at(0) },
    { author: "bob", body: "please fix", state: "CHANGES_REQUESTED", createdAt: at(20) },
    { author: "bob", body: "", state: "APPROVED", createdAt: at(21) },
    { author: "bob", body: "draft", state: "PENDING", createdAt: at(22) },
  ],
  comments: [
    { author: "bob", body: "/locus iterate", createdAt: at(25) },
    { author: "carol", body: "add docs", createdAt: at(26) },
    { author: "carol", body: "after the trigger", createdAt: at(45) },
  ],
};

const policy = {
  triggeredAt: at(30),
  lastAgentCommitAt: at(10),
  selfLogins: ["locus[bot]"],
  mayGiveFeedback: (login: string) => login !== "eve",
};

describe("feedback selection", () => {
  it("keeps open threads, and reviews and comments since the last agent commit, up to the trigger", () => {
    const selected = selectFeedback(sources, policy);
    expect(selected.threads).toHaveLength(1);
    expect(selected.threads[0]?.comments.map((c) => c.body)).toEqual(["rename"]);
    expect(selected.reviews.map((r) => r.body)).toEqual(["please fix"]);
    expect(selected.comments.map((c) => c.body)).toEqual(["add docs"]);
  });

  it("hears people without write access only when allowed", () => {
    const selected = selectFeedback(sources, { ...policy, mayGiveFeedback: () => true });
    expect(selected.threads[0]?.comments.map((c) => c.body)).toEqual(["rename", "also delete the tests"]);
  });

  it("finds nothing to address when everything predates the last agent commit", () => {
    const selected = selectFeedback(
      { threads: [], reviews: sources.reviews.slice(0, 1), comments: [] },
      policy,
    );
    expect(hasFeedback(selected, "")).toBe(false);
    expect(hasFeedback(selected, "please rename")).toBe(true);
  });

  it("keeps a review posted in the same second as the last agent commit", () => {
    const sameSecond = { author: "bob", body: "same second", state: "COMMENTED" as const, createdAt: at(10) };
    const selected = selectFeedback({ threads: [], reviews: [sameSecond], comments: [] }, policy);
    expect(selected.reviews.map((r) => r.body)).toEqual(["same second"]);
  });

  it("names for a permission check only the authors who would otherwise be heard, each once", () => {
    const { mayGiveFeedback: _everyone, ...timing } = policy;
    const repeated: FeedbackSources = {
      ...sources,
      comments: [...sources.comments, { author: "Carol", body: "and a changelog", createdAt: at(27) }],
    };
    // bob's resolved, late-edited and old words and carol's late comment need no check; locus is itself.
    expect(feedbackAuthors(repeated, timing)).toEqual(["bob", "eve", "Carol"]);
    expect(
      feedbackAuthors({ threads: [], reviews: sources.reviews.slice(0, 1), comments: [] }, timing),
    ).toEqual([]);
  });
});
