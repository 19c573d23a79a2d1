/**
 * Kill and signals for the Action (docs/reliability.md): the bundled entry, run as the runner runs it, is
 * cancelled (SIGINT, then SIGTERM, as GitHub does on a cancel) and killed
 * outright (`kill -9`, as a lost runner is) at chosen points: after its labels
 * moved to in-progress, mid-answer from the model, and after its push but
 * before its pull request. Each point is reached deterministically: the
 * simulator or the Anthropic fake holds the request there and tells the test.
 * The cancel must save the work to the wip branch and record the failure
 * within GitHub's budget; after each kill the stale sweep brings the issue
 * back once it has been quiet past the threshold (never before), and the
 * final attempt delivers everything every earlier attempt checkpointed.
 */
import { existsSync, watch } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply, say } from "../../sandbox/anthropic-fake/script.ts";
import type { ActionProcess, ActionRun, Harness } from "../action/harness.ts";
import { OWNER, PROJECT_FILES, REPO, startHarness } from "../action/harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

/** GitHub's cancel budget: SIGINT, 7.5 s later SIGTERM, 2.5 s later SIGKILL; the bar (docs/reliability.md, kill and signals) is 7 s. */
const SAVE_BUDGET_MS = 7_000;
const KILL_AFTER_MS = 10_000;
/** Just past `retry.staleAfterMinutes` (default 60). */
const PAST_STALE_MINUTES = 61;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** Resolves once; `trigger` is the callback handed to the fake or the simulator. */
function point(): { reached: Promise<void>; trigger: () => void } {
  let trigger = () => undefined as void;
  const reached = new Promise<void>((resolve) => (trigger = resolve));
  return { reached, trigger };
}

/** Resolves when the process has printed `text` (its own log, not a timer). */
function printed(action: ActionProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (action.stdout().includes(text)) return resolve();
    const check = () => {
      if (!action.stdout().includes(text)) return;
      action.child.stdout?.off("data", check);
      resolve();
    };
    action.child.stdout?.on("data", check);
  });
}

async function killed(action: ActionProcess): Promise<ActionRun> {
  action.child.kill("SIGKILL");
  const run = await action.done;
  expect(action.child.signalCode).toBe("SIGKILL");
  return run;
}

async function labels(issue: number): Promise<readonly string[]> {
  return (await h.api.getIssue(issue))?.labels ?? [];
}

async function remoteSha(branch: string): Promise<string> {
  const line = await h.git(["ls-remote", "origin", `refs/heads/${branch}`]);
  return line.split("\t")[0] ?? "";
}

function repoState() {
  const repo = [...h.sim.store.repos.values()][0];
  if (!repo) throw new Error("no repository in the simulator");
  return repo;
}

/** GitHub's clock moves on: the status comment was last touched `minutes` ago. */
function ageStatusComment(issue: number, minutes: number): void {
  const stored = repoState().comments.find(
    (c) => c.issueNumber === issue && c.body.startsWith("<!-- locus:status -->"),
  );
  if (stored)
    stored.updatedAt = new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
}

/** Runs the stale sweep and answers the runs it dispatched for `issue` (their inputs). */
async function sweep(issue: number): Promise<Array<Record<string, string>>> {
  const before = repoState().runs.length;
  const run = await h.run({ mode: "stale" });
  expect(run.code).toBe(0);
  return repoState()
    .runs.slice(before)
    .filter((r) => r.inputs["issue"] === String(issue))
    .map((r) => r.inputs);
}

/** Marks the simulator's record of a dispatched run finished (the runner ran it: this test did). */
async function finishRuns(): Promise<void> {
  const repo = repoState();
  for (const run of repo.runs) {
    if (run.status !== "completed") await h.sim.runs.complete(repo, run.id, "success");
  }
}

describe("cancel and kill the Action at chosen points", () => {
  it("loses no checkpointed work and leaves nothing stuck in-progress", async () => {
    const issue = (
      await h.api.createIssue({
        title: "Add a feature",
        body: "Add src/feature.js.",
        labels: ["locus:queued"],
      })
    ).number;
    const wip = `locus/wip/issue-${issue}`;
    const branch = `locus/issue-${issue}`;

    // 1. kill -9 right after the labels moved to in-progress (the status comment's edit is held).
    //    The app writes the status comment when it dispatches, as here; the Action then edits it.
    const dispatched = await h.api.upsertComment(issue, "locus:status", "**Locus:** Queued.");
    const afterLabels = point();
    // The labels and the comment edit go in one GraphQL request once the repository has Locus's
    // labels; with their creation refused, the Action writes them over REST, label set first, which
    // leaves the moment between the two that this step is about.
    h.sim.faults.add({
      path: /\/graphql$/,
      operationName: "CreateLabels",
      kind: "status",
      status: 403,
      times: 1,
    });
    h.sim.faults.add({
      kind: "hang",
      method: "PATCH",
      path: `/repos/*/*/issues/comments/${dispatched.comment.id}`,
      times: 1,
      onHang: afterLabels.trigger,
    });
    const first = await h.start({ mode: "issue", issue: String(issue) });
    await afterLabels.reached;
    await killed(first);
    expect(await labels(issue)).toContain("locus:in-progress");

    ageStatusComment(issue, PAST_STALE_MINUTES);
    const requeued = await sweep(issue);
    expect(requeued).toHaveLength(1);
    expect(await labels(issue)).toContain("locus:queued");

    // 2. Cancelled mid-answer: SIGINT, then SIGTERM as soon as it has begun saving (GitHub's
    //    7.5 s compressed to nothing); it must save and record within the budget on its own.
    const midAnswer = point();
    h.fake.setScript([
      reply(call("write_file", { path: "src/feature.js", content: "export const feature = 1;\n" })),
      {
        holdAfterEvents: 3,
        response: reply(say("Now the tests…"), call("write_file", { path: "x", content: "" })),
        onHold: midAnswer.trigger,
      },
    ]);
    const second = await h.start(requeued[0] ?? {});
    await midAnswer.reached;
    const interruptedAt = Date.now();
    second.child.kill("SIGINT");
    await Promise.race([printed(second, "Received SIGINT"), second.done]);
    second.child.kill("SIGTERM");
    const deadline = setTimeout(() => second.child.kill("SIGKILL"), KILL_AFTER_MS);
    const cancelled = await second.done;
    clearTimeout(deadline);
    const tookMs = Date.now() - interruptedAt;
    await finishRuns();

    expect(second.child.signalCode, "exited on its own, before GitHub's SIGKILL").toBeNull();
    expect(cancelled.code).toBe(0);
    expect(tookMs).toBeLessThan(SAVE_BUDGET_MS);
    expect(await h.show(wip, "src/feature.js")).toBe("export const feature = 1;\n");
    const checkpoint = await remoteSha(wip);
    expect(await labels(issue)).toContain("locus:failed");
    expect(await labels(issue)).not.toContain("locus:in-progress");
    const failure = (await h.api.getIssue(issue))?.comments.find((c) =>
      c.body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure?.body).toContain("the run was cancelled");
    expect(failure?.body).toContain(`[\`${wip}\`](${h.sim.url}/${OWNER}/${REPO}/tree/${wip})`);

    // 3. kill -9 mid-answer on the retry, which started from the checkpoint.
    const retry = await sweep(issue);
    expect(retry).toHaveLength(1);
    const stalled = point();
    h.fake.setScript([
      reply(call("write_file", { path: "src/feature.test.js", content: "// test\n" })),
      { holdAfterEvents: 2, onHold: stalled.trigger },
    ]);
    const third = await h.start(retry[0] ?? {});
    await stalled.reached;
    await killed(third);
    await finishRuns();
    expect(await remoteSha(wip), "the checkpoint survives the kill").toBe(checkpoint);
    expect(await labels(issue)).toContain("locus:in-progress");
    // Not stale yet: a sweep inside the threshold leaves it alone.
    expect(await sweep(issue)).toHaveLength(0);
    expect(await labels(issue)).toContain("locus:in-progress");
    ageStatusComment(issue, PAST_STALE_MINUTES);
    const afterStall = await sweep(issue);
    expect(afterStall).toHaveLength(1);
    expect(await labels(issue)).toContain("locus:queued");

    // 4. kill -9 after the push, before the pull request.
    const beforePr = point();
    h.sim.faults.add({
      kind: "hang",
      method: "POST",
      path: "/repos/*/*/pulls",
      times: 1,
      onHang: beforePr.trigger,
    });
    h.fake.setScript([
      reply(call("write_file", { path: "src/feature.test.js", content: "// test\n" })),
      reply(call("finish", { summary: "Added the feature and its test." })),
    ]);
    const fourth = await h.start(afterStall[0] ?? {});
    await beforePr.reached;
    await killed(fourth);
    await finishRuns();
    const pushed = await remoteSha(branch);
    expect(pushed).not.toBe("");
    expect(await h.show(branch, "src/feature.js")).toBe("export const feature = 1;\n");
    expect(await remoteSha(wip), "the checkpoint is kept until a PR holds its work").toBe(checkpoint);
    ageStatusComment(issue, PAST_STALE_MINUTES);
    const afterPush = await sweep(issue);
    expect(afterPush).toHaveLength(1);

    // 5. The last attempt delivers: the pushed branch moves forward (no force-push) and holds
    //    the checkpointed work.
    h.fake.setScript([reply(call("finish", { summary: "Everything was already there." }))]);
    const last = await h.run(afterPush[0] ?? {});
    await finishRuns();
    expect(last.code).toBe(0);
    expect(last.outputs["status"]).toBe("succeeded");
    expect(await h.show(branch, "src/feature.js")).toBe("export const feature = 1;\n");
    expect(await h.show(branch, "src/feature.test.js")).toBe("// test\n");
    await h.git(["merge-base", "--is-ancestor", pushed, `origin/${branch}`]);
    expect(await labels(issue)).toContain("locus:in-review");
    expect(await sweep(issue)).toHaveLength(0);
  }, 120_000);

  it("SIGINT while the agent's shell command runs: the command's process is ended and the work saved in time", async () => {
    const issue = (
      await h.api.createIssue({ title: "Long build", body: "Build it.", labels: ["locus:queued"] })
    ).number;
    const markers = await mkdtemp(join(tmpdir(), "locus-signal-"));
    const pidFile = join(markers, "pid");
    const started = new Promise<void>((resolve) => {
      const watcher = watch(markers, () => {
        if (!existsSync(pidFile)) return;
        watcher.close();
        resolve();
      });
    });
    h.fake.setScript([
      reply(call("write_file", { path: "src/build.js", content: "export const build = 1;\n" })),
      // The shell writes its pid, then becomes a 60 s sleep: only a kill of its process group ends it.
      reply(
        call("run_shell", {
          command: `echo $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile} && exec sleep 60`,
        }),
      ),
      reply(call("finish", { summary: "unreachable" })),
    ]);
    // The test watches a host pid: this run is unsandboxed (a sandboxed command's pid is its own
    // namespace's, and its timeout kill is in test/lib/sandbox/bubblewrap-sandbox.test.ts).
    await writeFile(join(h.scratch, "unsandboxed.yml"), "version: 3\nsandbox:\n  mode: off\n");
    await h.git(["checkout", "--quiet", "-B", "unsandboxed", "origin/main"]);
    await h.git(["add", "unsandboxed.yml"]);
    await h.git(["commit", "--quiet", "-m", "config: sandbox off"]);
    await h.git(["push", "--quiet", "origin", "unsandboxed:main"]);
    const action = await h.start({ mode: "issue", issue: String(issue), "config-path": "unsandboxed.yml" });
    await started;
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    const interruptedAt = Date.now();
    action.child.kill("SIGINT");
    const deadline = setTimeout(() => action.child.kill("SIGKILL"), KILL_AFTER_MS);
    const run = await action.done;
    clearTimeout(deadline);

    expect(action.child.signalCode).toBeNull();
    expect(run.code).toBe(0);
    expect(Date.now() - interruptedAt).toBeLessThan(SAVE_BUDGET_MS);
    expect(() => process.kill(pid, 0), "the sleep is gone").toThrow();
    expect(await h.show(`locus/wip/issue-${issue}`, "src/build.js")).toBe("export const build = 1;\n");
    expect(await labels(issue)).toContain("locus:failed");
    await rm(markers, { recursive: true, force: true });
  }, 60_000);
});
