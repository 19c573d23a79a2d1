import { describe, expect, it } from "vitest";
import type { EditHistory, TaskComment, TaskIssue } from "../../../lib/github/index.ts";
import { promptIssue } from "../../../lib/task/prompt-issue.ts";
import { textAtTrigger } from "../../../lib/trust/text-at-trigger.ts";

const everyoneWrites = { isWriter: () => true, includeOutsiders: false };

const trigger = new Date("2026-11-24T10:00:00Z");
const never: EditHistory = {
  createdAt: "2026-11-24T09:00:00Z",
  lastEditedAt: null,
  revisions: [],
  includesCreated: false,
  truncated: false,
};
const editedLater: EditHistory = {
  createdAt: "2026-11-24T09:00:00Z",
  lastEditedAt: "2026-11-24T10:30:00Z",
  revisions: [
    { editedAt: "2026-11-24T09:00:00Z", body: "v1" },
    { editedAt: "2026-11-24T09:30:00Z", body: "v2" },
    { editedAt: "2026-11-24T10:30:00Z", body: "v3" },
  ],
  includesCreated: true,
  truncated: false,
};

describe("textAtTrigger", () => {
  it("keeps text never edited, or last edited by the trigger", () => {
    expect(textAtTrigger("now", never, trigger)).toEqual({ ok: true, text: "now" });
    expect(textAtTrigger("now", { ...never, lastEditedAt: "2026-11-24T10:00:00Z" }, trigger)).toEqual({
      ok: true,
      text: "now",
    });
  });

  it("recovers the revision in force at the trigger when the body was edited after it", () => {
    expect(textAtTrigger("v3", editedLater, trigger)).toEqual({ ok: true, text: "v2" });
  });

  it("leaves the text out when its revision is deleted, beyond the history returned, or missing", () => {
    const deleted = {
      ...editedLater,
      revisions: editedLater.revisions.map((r) => (r.body === "v2" ? { ...r, body: null } : r)),
    };
    expect(textAtTrigger("v3", deleted, trigger)).toMatchObject({ ok: false, why: /deleted/ });
    const truncated = { ...editedLater, revisions: editedLater.revisions.slice(2), truncated: true };
    expect(textAtTrigger("v3", truncated, trigger)).toMatchObject({ ok: false, why: /beyond/ });
    const missing = { ...truncated, truncated: false };
    expect(textAtTrigger("v3", missing, trigger)).toMatchObject({ ok: false, why: /does not hold/ });
    expect(textAtTrigger("x", { ...never, createdAt: "2026-11-24T11:00:00Z" }, trigger)).toMatchObject({
      ok: false,
    });
  });
});

describe("promptIssue", () => {
  const comment = (body: string, history: EditHistory, author = "alice"): TaskComment => ({
    id: 1,
    body,
    author,
    authorType: "User",
    authorAssociation: "MEMBER",
    createdAt: history.createdAt,
    updatedAt: history.lastEditedAt ?? history.createdAt,
    url: "",
    history,
  });
  const issue = (body: string, history: EditHistory, comments: TaskComment[]): TaskIssue => ({
    number: 7,
    title: "Greet",
    body,
    state: "open",
    labels: [],
    milestone: null,
    author: "alice",
    isPullRequest: false,
    url: "",
    comments,
    history,
  });

  it("uses trigger-time text, drops later comments and Locus's own, and says what it left out", () => {
    const prompt = promptIssue(
      issue("v3", editedLater, [
        comment("now", editedLater),
        comment("gone", { ...editedLater, revisions: editedLater.revisions.slice(2) }, "bob"),
        comment("later", { ...never, createdAt: "2026-11-24T10:10:00Z" }),
        comment("<!-- locus:status -->\nWorking.", editedLater, "locus[bot]"),
      ]),
      trigger,
      everyoneWrites,
    );
    expect(prompt.body).toBe("v2");
    expect(prompt.comments).toEqual([{ author: "alice", body: "v2", outsider: false }]);
    expect(prompt.withheld).toEqual([
      "A comment by @bob: it was edited after the trigger and GitHub's edit history does not hold its earlier text.",
    ]);
  });

  it("leaves an unrecoverable description out instead of using the edit", () => {
    const prompt = promptIssue(
      issue("v3", { ...editedLater, revisions: editedLater.revisions.slice(2) }, []),
      trigger,
      everyoneWrites,
    );
    expect(prompt.body).toBe("");
    expect(prompt.withheld?.[0]).toMatch(/^The issue description: it was edited after the trigger/);
  });
});
