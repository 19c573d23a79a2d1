import nock from "nock";
import { describe, expect, it } from "vitest";
import {
  createCallCounter,
  createEtagCache,
  createGateway,
  type EtagCache,
} from "../../../lib/github/index.ts";
import { API, R, REPO, comment, pull, recordingLog, testGateway, testOctokit } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

describe("call counter", () => {
  it("counts by route template and GraphQL operation, reads apart from writes", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/issues/1`)
      .reply(404, { message: "Not Found" })
      .get(`${R}/issues/2`)
      .reply(404, { message: "Not Found" })
      .post(`${R}/issues/2/comments`)
      .reply(201, comment(5, "x"))
      .post("/graphql")
      .reply(200, { data: { repository: { milestone: null } } });

    await gateway.getIssue(1);
    await gateway.getIssue(2);
    await gateway.createComment(2, "x");
    await gateway.listMilestoneIssues(3);

    expect(gateway.counter.snapshot()).toEqual({
      total: 4,
      reads: 3,
      writes: 1,
      notModified: 0,
      retries: 0,
      byRoute: {
        "GET /repos/{owner}/{repo}/issues/{issue_number}": 2,
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": 1,
        "graphql query MilestoneIssues": 1,
      },
      // An answer without the cost GitHub reports counts as the least a call costs.
      graphqlPoints: 1,
      pointsByRoute: { "graphql query MilestoneIssues": 1 },
    });
  });

  it("totals a run across gateways that share one counter, and ignores requests made outside the gateway", async () => {
    const counter = createCallCounter();
    const log = recordingLog();
    const { octokit } = testOctokit({ log });
    const a = createGateway({ ownLogins: ["locus[bot]"], octokit, repo: REPO, log, counter });
    const b = createGateway({
      ownLogins: ["locus[bot]"],
      octokit,
      repo: { owner: "acme", repo: "gadgets" },
      log,
      counter,
    });
    nock(API)
      .get(R)
      .reply(200, { default_branch: "main" })
      .get("/repos/acme/gadgets")
      .reply(200, { default_branch: "trunk" })
      .get("/zen")
      .reply(200, "Keep it logically awesome.");

    expect(await a.getDefaultBranch()).toBe("main");
    expect(await b.getDefaultBranch()).toBe("trunk");
    await octokit.request("GET /zen");

    expect(counter.snapshot().byRoute).toEqual({ "GET /repos/{owner}/{repo}": 2 });
  });
});

describe("conditional requests", () => {
  it("re-reads with If-None-Match and answers a 304 from the cache", async () => {
    const { gateway } = testGateway();
    nock(API, { badheaders: ["if-none-match"] })
      .get(`${R}/pulls/8`)
      .reply(200, pull(8), { etag: '"v1"' });
    nock(API, { reqheaders: { "if-none-match": '"v1"' } })
      .get(`${R}/pulls/8`)
      .reply(304, "", { etag: '"v1"' });

    const first = await gateway.getPullRequest(8);
    const second = await gateway.getPullRequest(8);

    expect(second).toEqual(first);
    expect(second?.head.ref).toBe("locus/issue-1");
    expect(gateway.counter.snapshot()).toMatchObject({ total: 2, reads: 2, notModified: 1 });
  });

  it("keys the cache by media type and query, so a diff never answers for JSON", async () => {
    const { gateway } = testGateway();
    nock(API, { badheaders: ["if-none-match"] })
      .get(`${R}/pulls/8`)
      .reply(200, pull(8), { etag: '"json"' })
      .get(`${R}/pulls/8`)
      .matchHeader("accept", "application/vnd.github.v3.diff")
      .reply(200, "diff --git a/x b/x\n", { etag: '"diff"', "content-type": "text/plain; charset=utf-8" })
      .get(`${R}/issues/8/comments`)
      .query({ since: "2026-01-01T00:00:00Z", per_page: 100, page: 1 })
      .reply(200, [], { etag: '"since"' })
      .get(`${R}/issues/8/comments`)
      .query({ per_page: 100, page: 1 })
      .reply(200, [], { etag: '"all"' });

    await gateway.getPullRequest(8);
    expect(await gateway.getPullRequestDiff(8)).toBe("diff --git a/x b/x\n");
    await gateway.listIssueComments(8, { since: "2026-01-01T00:00:00Z" });
    await gateway.listIssueComments(8);
  });

  it("a new 200 replaces the cached answer", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(R)
      .reply(200, { default_branch: "main" }, { etag: '"a"' })
      .get(R)
      .matchHeader("if-none-match", '"a"')
      .reply(200, { default_branch: "trunk" }, { etag: '"b"' })
      .get(R)
      .matchHeader("if-none-match", '"b"')
      .reply(304, "");

    expect(await gateway.getDefaultBranch()).toBe("main");
    expect(await gateway.getDefaultBranch()).toBe("trunk");
    expect(await gateway.getDefaultBranch()).toBe("trunk");
  });
});

describe("shared reads", () => {
  type Answer = Awaited<ReturnType<Parameters<EtagCache["shared"]>[1]>>;
  const answer = (data: string) => ({ status: 200, url: "u", headers: {}, data }) as unknown as Answer;

  it("sends one read for callers asking while it is in flight, and reads again once it settled", async () => {
    const cache = createEtagCache();
    const reads: string[] = [];
    let finish: (value: Answer) => void = () => undefined;
    const held = (name: string) => () => {
      reads.push(name);
      return new Promise<Answer>((resolve) => {
        finish = resolve;
      });
    };

    const first = cache.shared("GET /config", held("first"));
    const second = cache.shared("GET /config", held("second"));
    const other = cache.shared("GET /other", () => Promise.resolve(answer("other")));
    finish(answer("config"));

    expect(await Promise.all([first, second, other])).toEqual([
      answer("config"),
      answer("config"),
      answer("other"),
    ]);
    expect(reads).toEqual(["first"]);
    expect(await cache.shared("GET /config", () => Promise.resolve(answer("later")))).toEqual(
      answer("later"),
    );
  });

  it("shares a failure with the callers that waited, then forgets it", async () => {
    const cache = createEtagCache();
    let fail: (error: Error) => void = () => undefined;
    const failing = () =>
      new Promise<Answer>((_, reject) => {
        fail = reject;
      });
    const first = cache.shared("GET /config", failing);
    const second = cache.shared("GET /config", failing);
    fail(new Error("502"));

    await expect(first).rejects.toThrow("502");
    await expect(second).rejects.toThrow("502");
    expect(await cache.shared("GET /config", () => Promise.resolve(answer("retried")))).toEqual(
      answer("retried"),
    );
  });
});
