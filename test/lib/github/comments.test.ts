import nock from "nock";
import { describe, expect, it } from "vitest";
import { isLocus } from "../../../lib/github/locus-identity.ts";
import { API, R, comment, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

const MARKER = "locus:status";

describe("sticky comments", () => {
  it("creates the comment with the hidden marker as its first line when none exists", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues/5/comments`)
      .query({ per_page: 100, page: 1 })
      .reply(200, [comment(1, "hello from alice")])
      .post(`${R}/issues/5/comments`, { body: "<!-- locus:status -->\nQueued." })
      .reply(201, comment(2, "<!-- locus:status -->\nQueued."));

    const result = await gateway.upsertComment(5, MARKER, "Queued.");

    expect(result.action).toBe("created");
    expect(result.comment.id).toBe(2);
  });

  it("edits the marked comment in place when the body changed", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues/5/comments`)
      .query(true)
      .reply(200, [comment(1, "first"), comment(9, "<!-- locus:status -->\nQueued.")])
      .patch(`${R}/issues/comments/9`, { body: "<!-- locus:status -->\nRunning." })
      .reply(200, comment(9, "<!-- locus:status -->\nRunning."));

    const result = await gateway.upsertComment(5, MARKER, "Running.");

    expect(result).toMatchObject({
      action: "updated",
      comment: { id: 9, body: "<!-- locus:status -->\nRunning." },
    });
  });

  it("makes no write when the body is unchanged (CRLF from GitHub included)", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues/5/comments`)
      .query(true)
      .reply(200, [comment(9, "<!-- locus:status -->\r\nLine one\r\nLine two")]);

    const result = await gateway.upsertComment(5, MARKER, "Line one\nLine two");

    expect(result.action).toBe("unchanged");
    expect(gateway.counter.snapshot()).toMatchObject({ reads: 1, writes: 0 });
  });

  it("ignores a comment that only quotes the marker", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues/5/comments`)
      .query(true)
      .reply(200, [comment(3, "> <!-- locus:status -->\n> Queued.\nwhy?", { user: { login: "mallory" } })]);

    expect(await gateway.findCommentByMarker(5, MARKER)).toBeNull();
  });

  it("refuses a marker that could close the HTML comment early", async () => {
    const { gateway } = testGateway();
    await expect(gateway.upsertComment(5, "x --> <b>", "body")).rejects.toThrow(/marker/);
  });
});

describe("isOwnAuthor", () => {
  it("knows Locus only by the logins it is given, case-insensitively; an empty list names nobody", () => {
    expect(isLocus(["Locus[bot]"], "locus[bot]")).toBe(true);
    expect(isLocus(["locus[bot]"], "mallory")).toBe(false);
    expect(isLocus([], "locus[bot]")).toBe(false);
  });
});

describe("comments and reactions", () => {
  it("lists comments since a time, across pages", async () => {
    const { gateway } = testGateway();
    const first = Array.from({ length: 100 }, (_, i) => comment(i + 1, `c${i + 1}`));
    nock(API)
      .get(`${R}/issues/5/comments`)
      .query({ since: "2026-01-02T00:00:00Z", per_page: 100, page: 1 })
      .reply(200, first, { link: `<${API}${R}/issues/5/comments?page=2>; rel="next"` })
      .get(`${R}/issues/5/comments`)
      .query({ since: "2026-01-02T00:00:00Z", per_page: 100, page: 2 })
      .reply(200, [comment(101, "last", { user: null, body: null })]);

    const comments = await gateway.listIssueComments(5, { since: "2026-01-02T00:00:00Z" });

    expect(comments).toHaveLength(101);
    expect(comments[100]).toMatchObject({ id: 101, author: "ghost", body: "" });
    expect(comments[0]).toMatchObject({ author: "locus[bot]", authorType: "Bot", authorAssociation: "NONE" });
  });

  it("reacts to an issue comment, an issue and a review comment on their own routes", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/issues/comments/11/reactions`, { content: "eyes" })
      .reply(201, {})
      .post(`${R}/issues/5/reactions`, { content: "+1" })
      .reply(201, {})
      .post(`${R}/pulls/comments/12/reactions`, { content: "rocket" })
      .reply(201, {});

    await gateway.addReaction({ commentId: 11 }, "eyes");
    await gateway.addReaction({ issue: 5 }, "+1");
    await gateway.addReaction({ reviewCommentId: 12 }, "rocket");

    expect(gateway.counter.snapshot().writes).toBe(3);
  });

  it("reads an issue with its comments", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues/5`)
      .reply(200, { number: 5, ...issueBody(), milestone: { number: 2 } })
      .get(`${R}/issues/5/comments`)
      .query(true)
      .reply(200, [comment(1, "/locus run")]);

    const found = await gateway.getIssue(5);

    expect(found).toEqual({
      number: 5,
      title: "Add greeting",
      body: "",
      state: "open",
      labels: ["locus:queued", "p:high"],
      milestone: 2,
      author: "alice",
      isPullRequest: false,
      url: "https://github.com/acme/widgets/issues/5",
      comments: [expect.objectContaining({ id: 1, body: "/locus run" })],
    });
  });

  it("answers null for an issue that does not exist, without reading comments", async () => {
    const { gateway } = testGateway();
    nock(API).get(`${R}/issues/404`).reply(404, { message: "Not Found" });

    expect(await gateway.getIssue(404)).toBeNull();
  });
});

function issueBody() {
  return {
    title: "Add greeting",
    body: null,
    state: "open",
    labels: [{ name: "locus:queued" }, "p:high"],
    user: { login: "alice" },
    html_url: "https://github.com/acme/widgets/issues/5",
  };
}
