/**
 * Work never lost when its parent moves: mode `issue` run in process in a
 * task world (test/fakes/task-world.ts) finds a checkpoint on
 * `locus/wip/issue-N` saved on an older base, rebases it onto the base as it
 * is now and continues it. A conflict goes to the agent, as mode `rebase`
 * does; when the agent cannot reconcile the two, the task waits with a
 * question naming the files, the wip branch stays as it was, and a writer's
 * answer reaches the agent on the next run.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../../lib/action/modes/issue.ts";
import { overallStatus, type ModeResult } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, type TaskWorld } from "../../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld({ github: { permissions: { alice: "write" } } });
}, 60_000);

afterAll(async () => {
  await w.close();
});

/** A wip commit changing `path` on today's main, then main moves on with `moved` changed. */
async function staleCheckpoint(issue: number, path: string, content: string, moved: string, movedTo: string) {
  await w.git(["checkout", "--quiet", "-B", "wip", "origin/main"]);
  await mkdir(dirname(join(w.scratch, path)), { recursive: true });
  await writeFile(join(w.scratch, path), content);
  await w.git(["add", path]);
  await w.git(["commit", "--quiet", "-m", `wip: saved (#${issue})\n\nStopped: it reached its time limit`]);
  await w.git(["push", "--quiet", "origin", `wip:refs/heads/locus/wip/issue-${issue}`]);
  await w.git(["checkout", "--quiet", "-B", "main2", "origin/main"]);
  await writeFile(join(w.scratch, moved), movedTo);
  await w.git(["add", moved]);
  await w.git(["commit", "--quiet", "-m", "someone moves main"]);
  await w.git(["push", "--quiet", "origin", "main2:main"]);
  return (await w.git(["rev-parse", `origin/locus/wip/issue-${issue}`])).trim();
}

const runIssue = async (issue: number): Promise<ModeResult> => runIssueMode(await w.context(), [issue]);

const commentsOn = (number: number) =>
  w.github.store.comments.filter((c) => c.issue === number).map((c) => c.body);

/** The wip branch's head on the remote ("" when there is none). */
async function wipHead(issue: number): Promise<string> {
  return (await w.git(["ls-remote", "origin", `refs/heads/locus/wip/issue-${issue}`])).split("\t")[0] ?? "";
}

describe("a checkpoint whose parent moved, in process", { timeout: 60_000 }, () => {
  it("is rebased onto the new base and continued", async () => {
    const issue = await w.github.createIssue({ title: "Add farewell", labels: ["locus:queued"] });
    await staleCheckpoint(
      issue.number,
      "src/farewell.js",
      "export const bye = 1;\n",
      "README.md",
      "# widgets v2\n",
    );
    w.anthropic.setScript([reply(call("finish", { summary: "Finished the farewell from the saved work." }))]);
    const before = w.anthropic.requests.length;

    const result = await runIssue(issue.number);

    expect(overallStatus(result)).toBe("succeeded");
    expect(JSON.stringify(w.anthropic.requests[before]?.body)).toContain(
      "A previous attempt stopped part-way",
    );
    const branch = `locus/issue-${issue.number}`;
    expect(await w.show(branch, "src/farewell.js")).toBe("export const bye = 1;\n");
    expect(await w.show(branch, "README.md")).toBe("# widgets v2\n");
    const files = (await w.git(["diff", "--name-only", "origin/main", `origin/${branch}`]))
      .split("\n")
      .filter(Boolean);
    expect(files).toEqual(["src/farewell.js"]);
  });

  it("hands a conflict to the agent, which resolves it, and the task goes on from the rebased work", async () => {
    const issue = await w.github.createIssue({ title: "Reword README", labels: ["locus:queued"] });
    await staleCheckpoint(issue.number, "README.md", "# mine\n", "README.md", "# theirs\n");
    w.anthropic.setScript([
      reply(call("write_file", { path: "README.md", content: "# mine and theirs\n" })),
      reply(call("finish", { summary: "Kept both titles." })),
      reply(call("finish", { summary: "Finished the README from the saved work." })),
    ]);
    const before = w.anthropic.requests.length;

    const result = await runIssue(issue.number);

    expect(overallStatus(result)).toBe("succeeded");
    const resolving = JSON.stringify(w.anthropic.requests[before]?.body);
    expect(resolving).toContain(`Rebase of the work saved on \`locus/wip/issue-${issue.number}\``);
    expect(resolving).toContain("stopped on a conflict");
    expect(resolving).toContain("someone moves main");
    expect(JSON.stringify(w.anthropic.requests[before + 2]?.body)).toContain(
      "A previous attempt stopped part-way",
    );
    const branch = `locus/issue-${issue.number}`;
    expect(await w.show(branch, "README.md")).toBe("# mine and theirs\n");
    const parent = (await w.git(["rev-parse", `origin/${branch}~1`])).trim();
    expect(parent).toBe((await w.git(["rev-parse", "origin/main"])).trim());
    expect(await w.git(["ls-remote", "origin", `refs/heads/locus/wip/issue-${issue.number}`])).toBe("");
    expect(w.github.labelsOf(issue.number)).toContain("locus:in-review");
  });

  it("waits with a question naming the files when the agent cannot resolve it, keeps the wip, and hands the answer to the agent next time", async () => {
    const issue = await w.github.createIssue({ title: "Retitle README", labels: ["locus:queued"] });
    const wip = await staleCheckpoint(
      issue.number,
      "README.md",
      "# mine again\n",
      "README.md",
      "# theirs again\n",
    );
    w.anthropic.setScript([reply(call("finish", { summary: "The two titles contradict each other." }))]);

    const result = await runIssue(issue.number);

    // The bundle's exit 0: no fault of Locus's own.
    expect(result.tasks.some((task) => task.fault)).toBe(false);
    expect(overallStatus(result)).toBe("waiting");
    expect(w.github.labelsOf(issue.number)).toContain("locus:waiting");
    expect(w.github.labelsOf(issue.number)).not.toContain("locus:failed");
    const comments = commentsOn(issue.number);
    const question = comments.find((body) => body.includes("<!-- locus:question -->")) ?? "";
    expect(question).toContain(`The work saved on \`locus/wip/issue-${issue.number}\``);
    expect(question).toContain("conflicts in `README.md`");
    expect(question).toContain("The two titles contradict each other.");
    expect(question).toContain(`saved on \`locus/wip/issue-${issue.number}\``);
    expect(comments.some((body) => body.startsWith("**Locus could not finish this task:**"))).toBe(false);
    const status = comments.find((body) => body.startsWith("<!-- locus:status -->")) ?? "";
    expect(status).toContain("conflicts in `README.md`");
    expect(await wipHead(issue.number)).toBe(wip);

    // A writer answers; the app would move it back to queued and dispatch it.
    w.github.seedComment(issue.number, "Use the title # ours, keep nothing else.", "alice");
    await w.github.setLabels(issue.number, ["locus:queued", "agent:managed"]);
    w.anthropic.setScript([
      reply(call("write_file", { path: "README.md", content: "# ours\n" })),
      reply(call("finish", { summary: "Took the answer's title." })),
      reply(call("finish", { summary: "Done." })),
    ]);
    const before = w.anthropic.requests.length;

    const again = await runIssue(issue.number);

    expect(overallStatus(again)).toBe("succeeded");
    const resolving = JSON.stringify(w.anthropic.requests[before]?.body);
    expect(resolving).toContain("stopped on a conflict");
    expect(resolving).toContain("Use the title # ours, keep nothing else.");
    expect(await w.show(`locus/issue-${issue.number}`, "README.md")).toBe("# ours\n");
  });

  it("fails, asking nobody, when the agent never got to judge the conflict (the model API refused)", async () => {
    const issue = await w.github.createIssue({ title: "Rename README", labels: ["locus:queued"] });
    const wip = await staleCheckpoint(
      issue.number,
      "README.md",
      "# mine, third\n",
      "README.md",
      "# theirs, third\n",
    );
    w.anthropic.setScript([]);

    const result = await runIssue(issue.number);

    expect(overallStatus(result)).toBe("failed");
    expect(w.github.labelsOf(issue.number)).toContain("locus:failed");
    const comments = commentsOn(issue.number);
    expect(comments.some((body) => body.includes("<!-- locus:question -->"))).toBe(false);
    const failure = comments.find((body) => body.startsWith("**Locus could not finish this task:**"));
    expect(failure).toContain(`resolving the conflicts of \`locus/wip/issue-${issue.number}\``);
    expect(await wipHead(issue.number)).toBe(wip);
  });
});
