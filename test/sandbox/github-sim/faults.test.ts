import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestSim } from "./harness.ts";
import type { TestSim } from "./harness.ts";

describe("fault injection, rate limits and conditional requests", () => {
  let t: TestSim;
  const delays: number[] = [];

  beforeEach(async () => {
    delays.length = 0;
    t = await startTestSim({
      delay: (ms) => {
        delays.push(ms);
        return Promise.resolve();
      },
      rateLimit: { core: 10 },
    });
    await t.sim.seed.repo("octocat/hello");
  });
  afterEach(() => t.close());

  function get(path: string, token: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${t.sim.apiUrl}${path}`, { headers: { authorization: `token ${token}`, ...headers } });
  }

  it("fails a route with 5xx a fixed number of times, then recovers", async () => {
    const token = t.sim.as("octocat");
    const fault = t.sim.faults.add({
      method: "GET",
      path: "/repos/{owner}/{repo}",
      kind: "status",
      status: 502,
      times: 2,
    });
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1)
      statuses.push((await get("/repos/octocat/hello", token)).status);
    expect(statuses).toEqual([502, 502, 200]);
    expect(fault.remaining).toBe(0);
    expect(t.sim.requestLog.map((entry) => entry.status)).toEqual([502, 502, 200]);
  });

  it("answers a secondary rate limit with 403 and retry-after", async () => {
    t.sim.faults.add({ path: "/repos/*/*/issues", kind: "secondary-rate-limit", retryAfter: 60, times: 1 });
    const response = await get("/repos/octocat/hello/issues", t.sim.as("octocat"));
    expect(response.status).toBe(403);
    expect(response.headers.get("retry-after")).toBe("60");
    const body = (await response.json()) as { message: string; documentation_url: string };
    expect(body.message).toMatch(/secondary rate limit/);
    expect(body.documentation_url).toMatch(/secondary-rate-limits/);
  });

  it("drops the connection and adds latency through the injected delay", async () => {
    const token = t.sim.as("octocat");
    t.sim.faults.add({ path: "/repos/octocat/hello/labels", kind: "drop", times: 1 });
    t.sim.faults.add({ path: "/repos/octocat/hello/labels", kind: "latency", ms: 1500 });
    await expect(get("/repos/octocat/hello/labels", token)).rejects.toThrow();
    expect((await get("/repos/octocat/hello/labels", token)).status).toBe(200);
    expect(delays).toEqual([1500, 1500]);
  });

  it("counts down per token, returns 304 on a matching If-None-Match without charging it, and stops at the limit", async () => {
    const token = t.sim.as("octocat");
    const first = await get("/repos/octocat/hello", token);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(first.headers.get("x-ratelimit-resource")).toBe("core");
    expect(first.headers.get("x-github-request-id")).toBeTruthy();
    const etag = first.headers.get("etag") ?? "";
    const cached = await get("/repos/octocat/hello", token, { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect(cached.headers.get("x-ratelimit-remaining")).toBe("9");
    const other = await get("/repos/octocat/hello", t.sim.as("alice"));
    expect(other.headers.get("x-ratelimit-remaining")).toBe("9");
    for (let index = 0; index < 9; index += 1) await get("/repos/octocat/hello", token);
    const limited = await get("/repos/octocat/hello", token);
    expect(limited.status).toBe(403);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(((await limited.json()) as { message: string }).message).toMatch(/^API rate limit exceeded/);
  });

  it("rejects missing and unknown credentials with GitHub's 401 bodies", async () => {
    const anonymous = await fetch(`${t.sim.apiUrl}/repos/octocat/hello`);
    expect(anonymous.status).toBe(401);
    const bad = await get("/repos/octocat/hello", "ghs_not-a-token");
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({
      message: "Bad credentials",
      documentation_url: "https://docs.github.com/rest",
      status: "401",
    });
  });
});
