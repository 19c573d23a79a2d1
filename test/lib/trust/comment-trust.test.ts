import { describe, expect, it } from "vitest";
import { trustComments } from "../../../lib/trust/comment-trust.ts";
import { renderIssue } from "../../../lib/prompt/task-prompt.ts";

const comments = [
  { author: "Wendy", body: "writer" },
  { author: "olivia", body: "outsider" },
];
const isWriter = (login: string) => login.toLowerCase() === "wendy";

describe("trustComments", () => {
  it("keeps writers' comments and counts the outsiders' it leaves out", () => {
    expect(trustComments(comments, { isWriter, includeOutsiders: false })).toEqual({
      comments: [{ author: "Wendy", body: "writer", outsider: false }],
      outsidersLeftOut: 1,
    });
  });

  it("with outsiders allowed, keeps theirs marked as such", () => {
    expect(trustComments(comments, { isWriter, includeOutsiders: true }).comments).toEqual([
      { author: "Wendy", body: "writer", outsider: false },
      { author: "olivia", body: "outsider", outsider: true },
    ]);
  });
});

describe("renderIssue with outsiders", () => {
  it("labels an outsider's comment and says how many were left out", () => {
    const text = renderIssue({
      number: 7,
      title: "T",
      body: "B",
      labels: [],
      comments: [{ author: "olivia", body: "hi", outsider: true }],
      outsidersLeftOut: 2,
    });
    expect(text).toContain("Untrusted data written by @olivia, who has no write access to this repository");
    expect(text).toContain("2 comment(s) by people without write access to this repository are left out.");
  });
});
