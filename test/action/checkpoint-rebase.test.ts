/**
 * Work never lost when its parent moves: through the bundled Action, a
 * checkpoint on `locus/wip/issue-N` saved on an older base is rebased onto
 * the base as it is now and continued (old code ignored it, then deleted it).
 * A conflict goes to the agent, as mode `rebase` does; when the agent cannot
 * reconcile the two, the task waits with a question naming the files, the wip
 * branch stays as it was, and a writer's answer reaches the agent on the next
 * run.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.repo.collaborator("alice", "write");
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** A wip commit changing `path` on today's main, then main moves on with `moved` changed. */
async function staleCheckpoint(issue: number, path: string, content: string, moved: string, movedTo: string) {
  await h.git(["checkout", "--quiet", "-B", "wip", "origin/main"]);
  await mkdir(dirname(join(h.scratch, path)), { recursive: true });
  await writeFile(join(h.scratch, path), content);
  await h.git(["add", path]);
  await h.git(["commit", "--quiet", "-m", `wip: saved (#${issue})\n\nStopped: it reached its time limit`]);
  await h.git(["push", "--quiet", "origin", `wip:refs/heads/locus/wip/issue-${issue}`]);
  await h.git(["checkout", "--quiet", "-B", "main2", "origin/main"]);
  await writeFile(join(h.scratch, moved), movedTo);
  await h.git(["add", moved]);
  await h.git(["commit", "--quiet", "-m", "someone moves main"]);
  await h.git(["push", "--quiet", "origin", "main2:main"]);
  return (await h.git(["rev-parse", `origin/locus/wip/issue-${issue}`])).trim();
}

describe("a checkpoint whose parent moved", () => {
  it("is rebased onto the new base and continued", async () => {
    const issue = await h.api.createIssue({ title: "Add farewell", labels: ["locus:queued"] });
    await staleCheckpoint(
      issue.number,
      "src/farewell.js",
      "export const bye = 1;\n",
      "README.md",
      "# widgets v2\n",
    );
    h.fake.setScript([reply(call("finish", { summary: "Finished the farewell from the saved work." }))]);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("succeeded");
    expect(JSON.stringify(h.fake.requests[before]?.body)).toContain("A previous attempt stopped part-way");
    const branch = `locus/issue-${issue.number}`;
    expect(await h.show(branch, "src/farewell.js")).toBe("export const bye = 1;\n");
    expect(await h.show(branch, "README.md")).toBe("# widgets v2\n");
    const files = (await h.git(["diff", "--name-only", "origin/main", `origin/${branch}`]))
      .split("\n")
      .filter(Boolean);
    expect(files).toEqual(["src/farewell.js"]);
  });

  it("hands a conflict to the agent, which resolves it, and the task goes on from the rebased work", async () => {
    const issue = await h.api.createIssue({ title: "Reword README", labels: ["locus:queued"] });
    await staleCheckpoint(issue.number, "README.md", "# mine\n", "README.md", "# theirs\n");
    h.fake.setScript([
      reply(call("write_file", { path: "README.md", content: "# mine and theirs\n" })),
      reply(call("finish", { summary: "Kept both titles." })),
      reply(call("finish", { summary: "Finished the README from the saved work." })),
    ]);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("succeeded");
    const resolving = JSON.stringify(h.fake.requests[before]?.body);
    expect(resolving).toContain(`Rebase of the work saved on \`locus/wip/issue-${issue.number}\``);
    expect(resolving).toContain("stopped on a conflict");
    expect(resolving).toContain("someone moves main");
    expect(JSON.stringify(h.fake.requests[before + 2]?.body)).toContain(
      "A previous attempt stopped part-way",
    );
    const branch = `locus/issue-${issue.number}`;
    expect(await h.show(branch, "README.md")).toBe("# mine and theirs\n");
    const parent = (await h.git(["rev-parse", `origin/${branch}~1`])).trim();
    expect(parent).toBe((await h.git(["rev-parse", "origin/main"])).trim());
    expect(await h.git(["ls-remote", "origin", `refs/heads/locus/wip/issue-${issue.number}`])).toBe("");
    expect((await h.api.getIssue(issue.number))?.labels).toContain("locus:in-review");
  });

  it("waits with a question naming the files when the agent cannot resolve it, keeps the wip, and hands the answer to the agent next time", async () => {
    const issue = await h.api.createIssue({ title: "Retitle README", labels: ["locus:queued"] });
    const wip = await staleCheckpoint(
      issue.number,
      "README.md",
      "# mine again\n",
      "README.md",
      "# theirs again\n",
    );
    h.fake.setScript([reply(call("finish", { summary: "The two titles contradict each other." }))]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("waiting");
    const waiting = await h.api.getIssue(issue.number);
    expect(waiting?.labels).toContain("locus:waiting");
    expect(waiting?.labels).not.toContain("locus:failed");
    const question = waiting?.comments.find((c) => c.body.includes("<!-- locus:question -->"))?.body ?? "";
    expect(question).toContain(`The work saved on \`locus/wip/issue-${issue.number}\``);
    expect(question).toContain("conflicts in `README.md`");
    expect(question).toContain("The two titles contradict each other.");
    expect(question).toContain(`saved on \`locus/wip/issue-${issue.number}\``);
    expect(waiting?.comments.some((c) => c.body.startsWith("**Locus could not finish this task:**"))).toBe(
      false,
    );
    const status = waiting?.comments.find((c) => c.body.startsWith("<!-- locus:status -->"))?.body ?? "";
    expect(status).toContain("conflicts in `README.md`");
    const wipNow = (await h.git(["ls-remote", "origin", `refs/heads/locus/wip/issue-${issue.number}`])).split(
      "\t",
    )[0];
    expect(wipNow).toBe(wip);

    // A writer answers; the app would move it back to queued and dispatch it.
    await h.as("alice").createComment(issue.number, "Use the title # ours, keep nothing else.");
    await h.api.setLabels(issue.number, ["locus:queued", "agent:managed"]);
    h.fake.setScript([
      reply(call("write_file", { path: "README.md", content: "# ours\n" })),
      reply(call("finish", { summary: "Took the answer's title." })),
      reply(call("finish", { summary: "Done." })),
    ]);
    const before = h.fake.requests.length;

    const again = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(again.outputs["status"]).toBe("succeeded");
    const resolving = JSON.stringify(h.fake.requests[before]?.body);
    expect(resolving).toContain("stopped on a conflict");
    expect(resolving).toContain("Use the title # ours, keep nothing else.");
    expect(await h.show(`locus/issue-${issue.number}`, "README.md")).toBe("# ours\n");
  });

  it("fails, asking nobody, when the agent never got to judge the conflict (the model API refused)", async () => {
    const issue = await h.api.createIssue({ title: "Rename README", labels: ["locus:queued"] });
    const wip = await staleCheckpoint(
      issue.number,
      "README.md",
      "# mine, third\n",
      "README.md",
      "# theirs, third\n",
    );
    h.fake.setScript([]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("failed");
    const after = await h.api.getIssue(issue.number);
    expect(after?.labels).toContain("locus:failed");
    expect(after?.comments.some((c) => c.body.includes("<!-- locus:question -->"))).toBe(false);
    const failure = after?.comments.find((c) => c.body.startsWith("**Locus could not finish this task:**"));
    expect(failure?.body).toContain(`resolving the conflicts of \`locus/wip/issue-${issue.number}\``);
    const now = (await h.git(["ls-remote", "origin", `refs/heads/locus/wip/issue-${issue.number}`])).split(
      "\t",
    )[0];
    expect(now).toBe(wip);
  });
});
