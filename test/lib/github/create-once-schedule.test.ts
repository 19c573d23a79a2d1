import { Octokit } from "@octokit/core";
import { describe, expect, it, vi } from "vitest";
import { createOnce } from "../../../lib/github/create-once.ts";
import { GitHubError } from "../../../lib/github/index.ts";
import { retryScheduleOf } from "../../../lib/github/policy.ts";
import { recordingLog, testOctokit } from "./helpers.ts";

const unreachable = () => Promise.reject(new Error("a create must send through its own `once`"));
const once = { rest: unreachable, graphql: unreachable };

describe("createOnce's schedule", () => {
  it("waits plugin-retry's 1, 4, 9 units before each look, and stops after the policy's retries", async () => {
    const wait = vi.fn((_ms: number) => Promise.resolve());
    const send = vi.fn(() => Promise.reject(new GitHubError("Bad Gateway", 502, "POST /x")));
    const landed = vi.fn(() => Promise.resolve(null));

    const created = createOnce(
      { once, schedule: { retries: 3, unitMs: 1000 }, log: recordingLog(), wait },
      { what: "comment on #1", send, landed },
    );

    await expect(created).rejects.toMatchObject({ status: 502 });
    expect(wait.mock.calls).toEqual([[1000], [4000], [9000]]);
    expect(send).toHaveBeenCalledTimes(4);
    expect(landed).toHaveBeenCalledTimes(3);
  });

  it("takes its budget from the octokit createOctokitPolicy configured, and none from one without it", () => {
    expect(retryScheduleOf(testOctokit({ maxRetries: 2 }).octokit)).toEqual({ retries: 2, unitMs: 0 });
    expect(retryScheduleOf(new Octokit())).toEqual({ retries: 0, unitMs: 0 });
  });
});
