/**
 * Nothing the agent wrote runs outside the sandbox, through the bundled Action. The attack: the
 * agent makes a nested repository in the worktree whose own config has a `filter.x.clean` and
 * whose `.gitattributes` says `* filter=x`, and leaves a file in it dirty. A host git that looks
 * inside it (a plain `git add --all` asks a "submodule" for its status) runs the filter as the
 * runner's user: here it would dump its environment and write a marker outside the sandbox. Every
 * child process the Action starts is recorded (test/action/record-processes.ts): on the host there
 * may only be bubblewrap and git in Locus's own repository.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import { SESSION_INIT } from "../../lib/sandbox/session-init.ts";
import { describeWithSandbox } from "../needs-bubblewrap.ts";
import { startHarness, type ActionRun, type Harness } from "./harness.ts";
import { outsideTheRule, recording, startedProcesses } from "./host-processes.ts";
import type { StartedProcess } from "./record-processes.ts";

let h: Harness;
let runs = 0;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const marker = () => join(h.dir, "filter-ran");
const envDump = () => join(h.dir, "filter-env");

/** One shell line: the nested repository with the filter, committed, then a file left dirty. */
function plantNestedRepository(): string {
  const filter = `sh -c 'env > ${envDump()}; echo ran > ${marker()}; cat'`;
  return [
    "mkdir -p vendor/lib && cd vendor/lib && git init -q",
    // Written to the file: the shell policy refuses `git config`.
    `printf '[filter "x"]\\n\\tclean = %s\\n' "${filter}" >> .git/config`,
    "echo '* filter=x' > .gitattributes && echo dirty > f.txt",
    "git -c user.name=a -c user.email=a@b add . >/dev/null 2>&1",
    "git -c user.name=a -c user.email=a@b commit -qm n >/dev/null 2>&1",
    "echo dirtier > f.txt; echo planted",
  ].join("; ");
}

interface Recorded {
  readonly run: ActionRun;
  readonly planted: boolean;
  readonly started: StartedProcess[];
}

/** Runs the Action with every child process it starts recorded; answers the run and the processes. */
async function recordedRun(inputs: Record<string, string>): Promise<Recorded> {
  runs += 1;
  const log = join(h.dir, `processes-${runs}.jsonl`);
  const from = h.fake.requests.length;
  const run = await h.run(inputs, await recording(log));
  // The attack was in place: the agent's shell said so in a tool result the model saw.
  const planted = JSON.stringify(h.fake.requests.slice(from).map((request) => request.body)).includes(
    "planted",
  );
  return { run, planted, started: await startedProcesses(log) };
}

function runnerTempOf(run: number): string {
  return join(h.dir, `run-${run}`, "temp");
}

/**
 * Whether Locus's git ran in a sandbox session of its own: offline (no relay to the proxy), its git
 * directory writable. Its commands go to the session over a pipe, so the session's start is what shows.
 */
function gitSessionStarted(started: readonly StartedProcess[]): boolean {
  return started.some(
    (p) =>
      basename(p.file) === "bwrap" &&
      p.args.includes(SESSION_INIT) &&
      !(p.args.at(-1) ?? "").includes("proxySocket"),
  );
}

const shell = (command: string) => call("run_shell", { command });

describeWithSandbox("the nested-repository filter, sandboxed", () => {
  let result: Recorded;
  let issue: number;
  let harnessRun: number;

  beforeAll(async () => {
    issue = (await h.api.createIssue({ title: "Nested", body: "x", labels: ["locus:queued"] })).number;
    h.fake.setScript([
      reply(call("write_file", { path: "note.txt", content: "hi\n" }), shell(plantNestedRepository())),
      reply(call("finish", { summary: "Done." })),
    ]);
    result = await recordedRun({ mode: "issue", issue: String(issue) });
    harnessRun = runs;
  }, 120_000);

  it("delivers the work without the nested repository, and the filter never runs on the host", async () => {
    expect(result.planted).toBe(true);
    expect(result.run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "note.txt")).toBe("hi\n");
    const tree = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue}`]);
    expect(tree).not.toContain("vendor/lib");
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
  });

  it("starts no program on the host but bubblewrap and git in Locus's own repository", () => {
    const { started } = result;
    expect(outsideTheRule(started, runnerTempOf(harnessRun))).toEqual([]);
    // Not vacuous: Locus's git did run, in a sandbox session of its own (offline: no relay to the
    // proxy, its git directory writable), and the push went from its own repository.
    expect(gitSessionStarted(started)).toBe(true);
    const hostGit = started.filter((p) => basename(p.file) === "git");
    expect(hostGit.some((p) => p.args.includes("push"))).toBe(true);
  });
});

describeWithSandbox("the nested-repository filter in an iterate round", () => {
  it("never runs on the host when the agent plants it while addressing a review", async () => {
    const issue = (await h.api.createIssue({ title: "Iterate me", body: "x", labels: ["locus:queued"] }))
      .number;
    h.fake.setScript([
      reply(call("write_file", { path: "first.txt", content: "1\n" })),
      reply(call("finish", { summary: "First round." })),
    ]);
    // Recorded too, so this file's run count stays the harness's (runnerTempOf).
    const { run: delivered } = await recordedRun({ mode: "issue", issue: String(issue) });
    expect(delivered.outputs["status"]).toBe("succeeded");
    const pr = Number(delivered.outputs["pr-number"]);
    h.repo.collaborator("rev", "write");
    await h.as("rev").createReview(pr, { event: "REQUEST_CHANGES", body: "Add a second file." });
    h.fake.setScript([
      reply(call("write_file", { path: "second.txt", content: "2\n" }), shell(plantNestedRepository())),
      reply(call("finish", { summary: "Added the second file." })),
    ]);

    const { run, planted, started } = await recordedRun({ mode: "iterate", pr: String(pr) });

    expect(planted).toBe(true);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "second.txt")).toBe("2\n");
    const tree = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue}`]);
    expect(tree).not.toContain("vendor/lib");
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
    expect(outsideTheRule(started, runnerTempOf(runs))).toEqual([]);
  }, 180_000);
});

describeWithSandbox("the nested-repository filter in a sprint's second task", () => {
  it("never runs on the host: the first task's nested repository is not recorded for the second to descend into", async () => {
    const milestone = await h.api.createMilestone({ title: "Nested sprint" });
    const first = await h.api.createIssue({
      title: "Task one",
      labels: ["locus:queued", "order:1"],
      milestone: milestone.number,
    });
    const second = await h.api.createIssue({
      title: "Task two",
      labels: ["locus:queued", "order:2"],
      milestone: milestone.number,
    });
    const turn = (request: RecordedRequest) => {
      const text = JSON.stringify(request.body);
      const one = /## Task: #\d+ Task one/.test(text);
      if (text.includes("tool_result")) return reply(call("finish", { summary: "Done." }));
      return one
        ? reply(call("write_file", { path: "one.txt", content: "1\n" }), shell(plantNestedRepository()))
        : reply(
            call("write_file", { path: "two.txt", content: "2\n" }),
            shell("echo dirtiest > vendor/lib/f.txt"),
          );
    };
    h.fake.setScript([turn, turn, turn, turn]);

    const { run, planted, started } = await recordedRun({
      mode: "sprint",
      milestone: String(milestone.number),
    });

    expect(planted).toBe(true);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${second.number}`, "two.txt")).toBe("2\n");
    for (const n of [first.number, second.number]) {
      expect(await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${n}`])).not.toContain(
        "vendor/lib",
      );
    }
    expect(existsSync(marker())).toBe(false);
    expect(outsideTheRule(started, runnerTempOf(runs))).toEqual([]);
  }, 180_000);
});

describe("the nested-repository filter with sandbox.mode off", () => {
  it("never runs: Locus's git, on the host here, does not look inside nested repositories", async () => {
    await writeFile(join(h.scratch, "off.yml"), "version: 3\nsandbox:\n  mode: off\n");
    await h.git(["checkout", "--quiet", "-B", "main", "origin/main"]);
    await h.git(["add", "off.yml"]);
    await h.git(["commit", "--quiet", "-m", "config: sandbox off"]);
    await h.git(["push", "--quiet", "origin", "main:main"]);
    const issue = (await h.api.createIssue({ title: "Off", body: "x", labels: ["locus:queued"] })).number;
    h.fake.setScript([
      reply(call("write_file", { path: "off.txt", content: "off\n" }), shell(plantNestedRepository())),
      reply(call("finish", { summary: "Done." })),
    ]);

    const { run, planted } = await recordedRun({
      mode: "issue",
      issue: String(issue),
      "config-path": "off.yml",
    });

    expect(planted).toBe(true);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "off.txt")).toBe("off\n");
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
  }, 120_000);
});

describeWithSandbox("the nested-repository filter across a failed task and its retry", () => {
  it("never runs on the host: not when the failure saves the work, nor when the retry continues it", async () => {
    const issue = (await h.api.createIssue({ title: "Retry me", body: "x", labels: ["locus:queued"] }))
      .number;
    // One turn, then the model API refuses: the run fails and saves what the agent left, nested repository and all.
    h.fake.setScript([
      reply(call("write_file", { path: "saved.txt", content: "saved\n" }), shell(plantNestedRepository())),
    ]);

    const failed = await recordedRun({ mode: "issue", issue: String(issue) });

    expect(failed.planted).toBe(true);
    expect(failed.run.outputs["status"]).toBe("failed");
    expect(await h.show(`locus/wip/issue-${issue}`, "saved.txt")).toBe("saved\n");
    const wip = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/wip/issue-${issue}`]);
    expect(wip).not.toContain("vendor/lib");
    expect(existsSync(marker())).toBe(false);
    expect(outsideTheRule(failed.started, runnerTempOf(runs))).toEqual([]);
    // Not vacuous: the checkpoint was staged by git in the sandbox.
    expect(gitSessionStarted(failed.started)).toBe(true);

    // Re-queued by hand: the retry continues from the checkpoint, and the agent plants the repository again.
    await h.api.setLabels(issue, ["locus:queued"]);
    h.fake.setScript([
      reply(call("write_file", { path: "done.txt", content: "done\n" }), shell(plantNestedRepository())),
      reply(call("finish", { summary: "Finished." })),
    ]);

    const retried = await recordedRun({ mode: "issue", issue: String(issue) });

    expect(retried.planted).toBe(true);
    expect(retried.run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "saved.txt")).toBe("saved\n");
    expect(await h.show(`locus/issue-${issue}`, "done.txt")).toBe("done\n");
    const tree = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue}`]);
    expect(tree).not.toContain("vendor/lib");
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
    expect(outsideTheRule(retried.started, runnerTempOf(runs))).toEqual([]);
  }, 240_000);
});

describeWithSandbox("the nested-repository filter in a rebase round", () => {
  it("never runs on the host when the agent plants it while resolving a restack's conflict", async () => {
    const issue = (
      await h.api.createIssue({ title: "Restack me", labels: ["locus:in-review", "agent:managed"] })
    ).number;
    const branch = `locus/issue-${issue}`;
    const commitOn = async (name: string, from: string, content: string, message: string) => {
      await h.git(["checkout", "--quiet", "-B", name, from]);
      await writeFile(join(h.scratch, "greeting.txt"), content);
      await h.git(["add", "greeting.txt"]);
      await h.git(["commit", "--quiet", "-m", message]);
      await h.git(["push", "--quiet", "--force", "origin", `${name}:${name}`]);
    };
    await commitOn(branch, "origin/main", "welcome\n", `feat: Restack me (#${issue})`);
    const pr = await h.api.createPullRequest({
      title: "Restack me",
      head: branch,
      base: "main",
      body: `Closes #${issue}`,
    });
    await h.api.setLabels(pr.number, ["agent:managed"]);
    await commitOn("main", "origin/main", "hello\n", "Say hello");
    h.fake.setScript([
      reply(
        call("write_file", { path: "greeting.txt", content: "welcome and hello\n" }),
        shell(plantNestedRepository()),
      ),
      reply(call("finish", { summary: "Kept both greetings." })),
    ]);

    const { run, planted, started } = await recordedRun({ mode: "rebase", pr: String(pr.number) });

    expect(planted).toBe(true);
    expect(run.code).toBe(0);
    expect(await h.show(branch, "greeting.txt")).toBe("welcome and hello\n");
    const parent = (await h.git(["rev-parse", `origin/${branch}~1`])).trim();
    expect(parent).toBe((await h.git(["rev-parse", "origin/main"])).trim());
    const tree = await h.git(["ls-tree", "-r", "--name-only", `origin/${branch}`]);
    expect(tree).not.toContain("vendor/lib");
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
    expect(outsideTheRule(started, runnerTempOf(runs))).toEqual([]);
    // Not vacuous: the rebase went on in the sandbox after the agent's resolution.
    expect(gitSessionStarted(started)).toBe(true);
  }, 180_000);
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
      reply(call("write_file", { path: "api.txt", content: "api\n" }), shell(plantNestedRepository())),
      reply(call("finish", { summary: "Done." })),
    ]);

    const { run, planted, started } = await recordedRun({
      mode: "issue",
      issue: String(issue),
      "config-path": "api.yml",
    });

    expect(planted).toBe(true);
    expect(run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue}`, "api.txt")).toBe("api\n");
    const head = (await h.git(["rev-parse", `origin/locus/issue-${issue}`])).trim();
    expect(h.repo.repo.verifiedCommits?.has(head)).toBe(true);
    expect(existsSync(marker())).toBe(false);
    expect(existsSync(envDump())).toBe(false);
    expect(outsideTheRule(started, runnerTempOf(runs))).toEqual([]);
    // Not vacuous: the commit's files were read on the host by git in Locus's own repository, and nothing was pushed.
    const hostGit = started.filter((p) => basename(p.file) === "git");
    expect(hostGit.some((p) => p.args.includes("cat-file") && p.args.includes("blob"))).toBe(true);
    expect(hostGit.some((p) => p.args.includes("push"))).toBe(false);
  }, 120_000);
});
