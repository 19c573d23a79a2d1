/**
 * Nothing the agent wrote runs outside the sandbox, through the bundled Action. The attack: the
 * agent makes a nested repository in the worktree whose own config has a `filter.x.clean` and
 * whose `.gitattributes` says `* filter=x`, and leaves a file in it dirty. A host git that looks
 * inside it (a plain `git add --all` asks a "submodule" for its status) runs the filter as the
 * runner's user: here it would dump its environment and write a marker outside the sandbox. Every
 * child process the Action starts is recorded (test/action/record-processes.ts): on the host there
 * may only be bubblewrap and git in Locus's own repository. The same attack, with a `CONNECT` to a
 * port out of range that once crashed the Action, moves to a retry, an iterate round, a rebase's
 * conflicts and a sprint's second task (attack-variants.ts): shared-home-attacks.test.ts plays it
 * there in the same runs as the planted home, one run of each variant for both attacks, and with
 * `sandbox.mode: off` in its unsandboxed sprint, where Locus's git runs on the host.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { describeWithSandbox } from "../needs-bubblewrap.ts";
import { startHarness, type Harness } from "./harness.ts";
import { filterTraces, gitSessionStarted, plantNestedRepository, shell } from "./nested-repository-attack.ts";
import { agentSaw, recordedRun, type VariantRun } from "./recorded-run.ts";
import { outsideTheRule } from "./host-processes.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const marker = () => filterTraces(h.dir).marker;
const envDump = () => filterTraces(h.dir).envDump;

/** Runs the Action with every child process it starts recorded, in a runner temp of its own. */
const recorded = (inputs: Record<string, string>) => recordedRun({ h, dir: h.dir }, inputs);

describeWithSandbox("the nested-repository filter, sandboxed", () => {
  let result: VariantRun;
  let issue: number;

  beforeAll(async () => {
    issue = (await h.api.createIssue({ title: "Nested", body: "x", labels: ["locus:queued"] })).number;
    h.fake.setScript([
      reply(call("write_file", { path: "note.txt", content: "hi\n" }), shell(plantNestedRepository(h.dir))),
      reply(call("finish", { summary: "Done." })),
    ]);
    result = await recorded({ mode: "issue", issue: String(issue) });
  }, 120_000);

  it("delivers the work without the nested repository, and the filter never runs on the host", async () => {
    expect(agentSaw(result, "planted")).toBe(true);
    expect(result.run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "note.txt")).toBe("hi\n");
    const tree = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue}`]);
    expect(tree).not.toContain("vendor/lib");
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
  });

  it("starts no program on the host but bubblewrap and git in Locus's own repository", () => {
    const { started } = result;
    expect(outsideTheRule(started, result.runnerTemp)).toEqual([]);
    // Not vacuous: Locus's git did run, in a sandbox session of its own (offline: no relay to the
    // proxy, its git directory writable), and the push went from its own repository.
    expect(gitSessionStarted(started)).toBe(true);
    const hostGit = started.filter((p) => basename(p.file) === "git");
    expect(hostGit.some((p) => p.args.includes("push"))).toBe(true);
  });
});

describeWithSandbox("the nested-repository filter with commit.via: api", () => {
  it("never runs on the host: the files GitHub's API receives are read from Locus's own repository", async () => {
    await writeFile(join(h.scratch, "api.yml"), "version: 3\ncommit:\n  via: api\n");
    await h.git(["checkout", "--quiet", "-B", "main", "origin/main"]);
    await h.git(["add", "api.yml"]);
    await h.git(["commit", "--quiet", "-m", "config: commits through the API"]);
    await h.git(["push", "--quiet", "origin", "main:main"]);
    const issue = (await h.api.createIssue({ title: "Api", body: "x", labels: ["locus:queued"] })).number;
    h.fake.setScript([
      reply(call("write_file", { path: "api.txt", content: "api\n" }), shell(plantNestedRepository(h.dir))),
      reply(call("finish", { summary: "Done." })),
    ]);

    const api = await recorded({
      mode: "issue",
      issue: String(issue),
      "config-path": "api.yml",
    });

    expect(agentSaw(api, "planted")).toBe(true);
    expect(api.run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "api.txt")).toBe("api\n");
    const head = (await h.git(["rev-parse", `origin/locus/issue-${issue}`])).trim();
    expect(h.repo.repo.verifiedCommits?.has(head)).toBe(true);
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
    expect(outsideTheRule(api.started, api.runnerTemp)).toEqual([]);
    // Not vacuous: the commit's files were read on the host by git in Locus's own repository, and nothing was pushed.
    const hostGit = api.started.filter((p) => basename(p.file) === "git");
    expect(hostGit.some((p) => p.args.includes("cat-file") && p.args.includes("blob"))).toBe(true);
    expect(hostGit.some((p) => p.args.includes("push"))).toBe(false);
  }, 120_000);
});
