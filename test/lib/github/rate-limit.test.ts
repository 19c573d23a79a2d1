import nock from "nock";
import { ProbotOctokit } from "probot";
import { describe, expect, it, vi } from "vitest";
import { createGateway, createOctokitPolicy, GitHubError } from "../../../lib/github/index.ts";
import { API, R, REPO, recordingLog, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

const NOW = 1_800_000_000_000;
const RESET_S = NOW / 1000 + 600;

function limitHeaders(remaining: number, resource = "core") {
  return {
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-used": String(5000 - remaining),
    "x-ratelimit-reset": String(RESET_S),
    "x-ratelimit-resource": resource,
  };
}

const REPO_BODY = { default_branch: "main" };
const SECONDARY = {
  message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
};

describe("primary rate limit, read from every response", () => {
  it("warns once per window under 100 remaining and records the state", async () => {
    const wait = vi.fn(() => Promise.resolve());
    const { gateway, log } = testGateway({ rateLimit: { wait, now: () => NOW } });
    nock(API)
      .get(R)
      .reply(200, REPO_BODY, limitHeaders(99))
      .get(`${R}/milestones/1`)
      .reply(404, { message: "Not Found" }, limitHeaders(98));

    await gateway.getDefaultBranch();
    await gateway.getMilestone(1);

    const warnings = log.lines.filter((l) => l.startsWith("warn:"));
    expect(warnings).toEqual([
      `warn: GitHub API rate limit low: 99/5000 core requests left, resets at ${new Date(RESET_S * 1000).toISOString()} (in 10 min).`,
    ]);
    expect(wait).not.toHaveBeenCalled();
    expect(gateway.rateLimits()).toEqual([
      { resource: "core", limit: 5000, remaining: 98, used: 4902, resetAt: RESET_S * 1000 },
    ]);
  });

  it("under 20 remaining, waits until the reset before the next request of that resource", async () => {
    const wait = vi.fn(() => Promise.resolve());
    const { gateway, log } = testGateway({ rateLimit: { wait, now: () => NOW } });
    nock(API)
      .get(R)
      .reply(200, REPO_BODY, limitHeaders(19))
      .post("/graphql")
      .reply(200, { data: { repository: { milestone: null } } }, limitHeaders(4000, "graphql"))
      .get(R)
      .reply(200, REPO_BODY, limitHeaders(4999));

    await gateway.getDefaultBranch();
    expect(wait).not.toHaveBeenCalled();
    // GraphQL has its own budget: no pause for it.
    await gateway.listMilestoneIssues(1);
    expect(wait).not.toHaveBeenCalled();
    await gateway.getDefaultBranch();

    // Time to the reset, plus one second so the request lands in the new window.
    expect(wait).toHaveBeenCalledExactlyOnceWith(RESET_S * 1000 - NOW + 1000);
    expect(log.lines).toContain(
      `warn: GitHub API rate limit nearly exhausted (19/5000 core requests left): pausing 601 s until it resets at ${new Date(RESET_S * 1000).toISOString()}; work resumes by itself.`,
    );
  });

  it("takes its thresholds from options", async () => {
    const wait = vi.fn(() => Promise.resolve());
    const { gateway, log } = testGateway({
      rateLimit: { wait, now: () => NOW, warnBelow: 10, waitBelow: 5 },
    });
    nock(API)
      .get(R)
      .times(2)
      .reply(200, REPO_BODY, limitHeaders(9))
      .get(R)
      .reply(200, REPO_BODY, limitHeaders(4));

    await gateway.getDefaultBranch();
    await gateway.getDefaultBranch();
    expect(wait).not.toHaveBeenCalled();
    await gateway.getDefaultBranch();
    expect(log.lines.filter((l) => l.startsWith("warn: GitHub API rate limit low"))).toHaveLength(1);

    nock(API).get(R).reply(200, REPO_BODY, limitHeaders(4999));
    await gateway.getDefaultBranch();
    expect(wait).toHaveBeenCalledOnce();
  });

  it("does not wait when the reset has already passed", async () => {
    const wait = vi.fn(() => Promise.resolve());
    const { gateway } = testGateway({ rateLimit: { wait, now: () => RESET_S * 1000 + 5000 } });
    nock(API).get(R).times(2).reply(200, REPO_BODY, limitHeaders(3));

    await gateway.getDefaultBranch();
    await gateway.getDefaultBranch();

    expect(wait).not.toHaveBeenCalled();
  });
});

describe("retries (the octokit's plugins, configured by createOctokitPolicy)", () => {
  it("retries a secondary rate limit after retry-after, doubling on each further attempt", async () => {
    const { gateway, wait } = testGateway();
    nock(API)
      .post(`${R}/issues/3/comments`)
      .reply(403, SECONDARY, { "retry-after": "7" })
      .post(`${R}/issues/3/comments`)
      .reply(429, SECONDARY, { "retry-after": "7" })
      .post(`${R}/issues/3/comments`)
      .reply(201, {
        id: 1,
        body: "hi",
        user: { login: "locus[bot]" },
        author_association: "NONE",
        created_at: "t",
        updated_at: "t",
        html_url: "u",
      });

    const created = await gateway.createComment(3, "hi");

    expect(created.id).toBe(1);
    expect(wait.mock.calls).toEqual([[7000], [14000]]);
    expect(gateway.counter.snapshot()).toMatchObject({ total: 1, writes: 1, retries: 2 });
  });

  it("gives up after maxRetries with an actionable GitHubError", async () => {
    const { gateway, wait } = testGateway({ maxRetries: 2 });
    nock(API).get(R).times(3).reply(403, SECONDARY, { "retry-after": "1" });

    const error = await gateway.getDefaultBranch().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GitHubError);
    expect(error).toMatchObject({ status: 403, route: "GET /repos/{owner}/{repo}" });
    expect((error as Error).message).toMatch(/rate limit exhausted.*re-run after the reset/);
    expect(wait).toHaveBeenCalledTimes(2);
  });

  it("retries an exhausted primary limit once it resets", async () => {
    const { gateway, wait } = testGateway();
    const reset = Math.floor(Date.now() / 1000) + 60;
    nock(API)
      .get(R)
      .reply(
        403,
        { message: "API rate limit exceeded" },
        { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
      )
      .get(R)
      .reply(200, REPO_BODY);

    expect(await gateway.getDefaultBranch()).toBe("main");
    expect(wait).toHaveBeenCalledOnce();
    const [ms] = wait.mock.calls[0]!;
    expect(ms).toBeGreaterThan(55_000);
    expect(ms).toBeLessThanOrEqual(62_000);
  });

  it("retries a 5xx and counts the retry", async () => {
    const { gateway } = testGateway();
    nock(API).get(R).reply(502, { message: "Bad Gateway" }).get(R).reply(200, REPO_BODY);

    expect(await gateway.getDefaultBranch()).toBe("main");
    expect(gateway.counter.snapshot()).toMatchObject({ total: 1, retries: 1 });
  });

  it("stops retrying a 5xx after maxRetries", async () => {
    const { gateway } = testGateway({ maxRetries: 2 });
    nock(API).get(R).times(3).reply(500, { message: "Server Error" });

    await expect(gateway.getDefaultBranch()).rejects.toMatchObject({
      status: 500,
      message: expect.stringMatching(/server error \(500\).*re-run later/) as unknown,
    });
  });

  it("never retries a 422 or a 429 that is not a rate limit", async () => {
    const { gateway } = testGateway();
    nock(API)
      .post(`${R}/milestones`)
      .reply(422, { message: "Validation Failed", errors: [{ code: "already_exists", field: "title" }] })
      .post(`${R}/milestones`)
      .reply(429, { message: "Too many" });

    await expect(gateway.createMilestone({ title: "S1" })).rejects.toMatchObject({ status: 422 });
    await expect(gateway.createMilestone({ title: "S1" })).rejects.toMatchObject({ status: 429 });
  });

  it("bounds Probot's secondary-limit retries once the app passes the policy", async () => {
    const log = recordingLog();
    const wait = vi.fn((_ms: number) => Promise.resolve());
    const Octokit = ProbotOctokit.defaults(
      createOctokitPolicy({
        log,
        wait,
        maxRetries: 2,
        retryUnitMs: 0,
        minWriteIntervalMs: 0,
        throttleId: "probot-test",
      }),
    );
    const octokit = new Octokit({ auth: { token: "ghs_probot" }, log });
    const gateway = createGateway({ ownLogins: ["locus[bot]"], octokit, repo: REPO, log });
    nock(API).put(`${R}/issues/1/labels`).times(3).reply(403, SECONDARY, { "retry-after": "3" });

    await expect(gateway.setLabels(1, ["locus:queued"])).rejects.toBeInstanceOf(GitHubError);

    // Three attempts in all, not Probot's default of retrying for ever, and
    // plugin-retry does not add its own attempts on top.
    expect(wait.mock.calls).toEqual([[3000], [6000]]);
    expect(log.lines).toContain(
      "error: GitHub secondary rate limit on PUT /repos/{owner}/{repo}/issues/{issue_number}/labels: giving up after 2 retries.",
    );
  });
});
