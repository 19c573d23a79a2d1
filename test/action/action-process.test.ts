/**
 * The Action's own process, observed from inside it with a preload (`NODE_OPTIONS=--require`)
 * that hooks its model requests, which happen at known points of a run:
 *
 * - An error nothing in the Action caught — what `CONNECT registry.npmjs.org:99999` once threw
 *   in the egress proxy's socket handler — must not end the process with the issue left
 *   `locus:in-progress`. The preload rejects a promise nobody awaits as the agent's second model
 *   call is sent; the task must end through its failure path: its work on the wip branch, a
 *   failure comment saying why, `locus:failed`, and a failed step.
 * - The runner's OIDC request token (`ACTIONS_ID_TOKEN_REQUEST_TOKEN`/`_URL`) has left the
 *   Action's environment by the time any agent runs, so nothing it starts inherits it.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, type ActionRun, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** Preloaded into the Action: the second request to the model API is sent with a stray rejection. */
const FAULT = `
const send = globalThis.fetch;
let calls = 0;
globalThis.fetch = function (input, init) {
  const url = String(input && input.url ? input.url : input);
  if (url.includes("/v1/messages") && ++calls === 2) Promise.reject(new Error("injected fault nobody awaits"));
  return send.call(this, input, init);
};
`;

describe("an error nothing caught, in the Action's own process", () => {
  let run: ActionRun;
  let issue: number;

  beforeAll(async () => {
    const preload = join(h.dir, "fault.cjs");
    await writeFile(preload, FAULT);
    issue = (await h.api.createIssue({ title: "Fault", body: "x", labels: ["locus:queued"] })).number;
    h.fake.setScript([
      reply(call("write_file", { path: "src/started.js", content: "export const started = 1;\n" })),
      reply(call("finish", { summary: "Never reached." })),
    ]);
    run = await h.run({ mode: "issue", issue: String(issue) }, { NODE_OPTIONS: `--require=${preload}` });
  }, 120_000);

  it("ends the task through its failure path: checkpoint, failure comment, locus:failed", async () => {
    const labels = (await h.api.getIssue(issue))?.labels ?? [];
    expect(labels).toContain("locus:failed");
    expect(labels).not.toContain("locus:in-progress");
    expect(await h.show(`locus/wip/issue-${issue}`, "src/started.js")).toBe("export const started = 1;\n");
    const failure = (await h.api.getIssue(issue))?.comments.find((comment) =>
      comment.body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure?.body).toContain("Locus stopped on an unexpected error: injected fault nobody awaits");
  });

  it("fails the step, with outputs and a summary, rather than dying with exit 1 and nothing written", () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("::error::Locus");
    expect(run.outputs["status"]).toBe("failed");
    expect(run.summary).not.toBe("");
  });
});

/** Preloaded into the Action: at each model request, whether the OIDC request variables are in its environment. */
const ENV_PROBE = `
const { appendFileSync } = require("node:fs");
const out = process.env.LOCUS_TEST_ENV_PROBE;
const send = globalThis.fetch;
globalThis.fetch = function (input, init) {
  const url = String(input && input.url ? input.url : input);
  if (url.includes("/v1/messages"))
    appendFileSync(out, Object.keys(process.env).filter((name) => name.startsWith("ACTIONS_ID_TOKEN")).join(",") + ";\\n");
  return send.call(this, input, init);
};
`;

describe("the runner's OIDC request token", () => {
  it("has left the Action's environment before the agent runs", async () => {
    const preload = join(h.dir, "env-probe.cjs");
    const out = join(h.dir, "env-probe.txt");
    await writeFile(preload, ENV_PROBE);
    await writeFile(out, "");
    const issue = (await h.api.createIssue({ title: "OIDC", body: "x", labels: ["locus:queued"] })).number;
    h.fake.setScript([
      reply(call("write_file", { path: "oidc.txt", content: "x\n" })),
      reply(call("finish", { summary: "Done." })),
    ]);

    const run = await h.run(
      { mode: "issue", issue: String(issue) },
      {
        NODE_OPTIONS: `--require=${preload}`,
        LOCUS_TEST_ENV_PROBE: out,
        ACTIONS_ID_TOKEN_REQUEST_URL: "http://127.0.0.1:9/token?run=1",
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: "canary-oidc-request-token-7f3a9c1e5b",
      },
    );

    expect(run.outputs["status"]).toBe("succeeded");
    // One line per model request, each naming the variables it found: none.
    expect(await readFile(out, "utf8")).toBe(";\n;\n");
    expect(run.stdout).not.toContain("canary-oidc-request-token");
  });
});
