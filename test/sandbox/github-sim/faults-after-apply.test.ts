import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestSim } from "./harness.ts";
import type { TestSim } from "./harness.ts";

describe("faults that fire after the request was carried out", () => {
  let t: TestSim;

  beforeEach(async () => {
    t = await startTestSim();
    await t.sim.seed.repo("octocat/hello");
  });
  afterEach(() => t.close());

  const post = (path: string, body: unknown) =>
    fetch(`${t.sim.apiUrl}${path}`, {
      method: "POST",
      headers: { authorization: `token ${t.sim.as("octocat")}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const stored = () => t.sim.store.repos.get("octocat/hello")?.labels.map((label) => label.name);

  it("stores the label, then answers 502", async () => {
    const fault = t.sim.faults.add({
      method: "POST",
      path: "/repos/{owner}/{repo}/labels",
      kind: "status",
      status: 502,
      afterApply: true,
      times: 1,
    });

    const failed = await post("/repos/octocat/hello/labels", { name: "bug", color: "d73a4a" });

    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { message: string }).message).toBe("Server Error");
    expect(stored()).toEqual(["bug"]);
    expect(fault.remaining).toBe(0);
    // The next request is answered as usual: GitHub says the label exists.
    expect((await post("/repos/octocat/hello/labels", { name: "bug", color: "d73a4a" })).status).toBe(422);
    expect(t.sim.requestLog.map((entry) => entry.status)).toEqual([502, 422]);
  });

  it("stores the label, then drops the connection without an answer", async () => {
    t.sim.faults.add({ path: "/repos/*/*/labels", kind: "drop", afterApply: true, times: 1 });

    await expect(post("/repos/octocat/hello/labels", { name: "bug", color: "d73a4a" })).rejects.toThrow();

    expect(stored()).toEqual(["bug"]);
    expect(t.sim.requestLog.map((entry) => entry.status)).toEqual([0]);
  });

  it("without afterApply fails before the request is carried out, as before", async () => {
    t.sim.faults.add({ path: "/repos/*/*/labels", kind: "status", status: 502, times: 1 });

    expect((await post("/repos/octocat/hello/labels", { name: "bug", color: "d73a4a" })).status).toBe(502);

    expect(stored()).toEqual([]);
  });
});
