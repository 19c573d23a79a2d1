/**
 * Work never lost when its parent moves: through the bundled Action, a
 * checkpoint on `locus/wip/issue-N` saved on an older base is rebased onto
 * the base as it is now and continued (old code ignored it, then deleted it);
 * a checkpoint that conflicts with the new base fails the task naming the
 * files, and the wip branch stays as it was.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
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

  it("fails naming the files when it conflicts, and keeps the wip as it was", async () => {
    const issue = await h.api.createIssue({ title: "Reword README", labels: ["locus:queued"] });
    const wip = await staleCheckpoint(issue.number, "README.md", "# mine\n", "README.md", "# theirs\n");
    h.fake.setScript([reply(call("finish", { summary: "unused" }))]);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("failed");
    expect(h.fake.requests.length).toBe(before);
    const failure = (await h.api.getIssue(issue.number))?.comments.find((c) =>
      c.body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure?.body).toContain(`the saved work on \`locus/wip/issue-${issue.number}\` conflicts`);
    expect(failure?.body).toContain("`README.md`");
    const now = (await h.git(["ls-remote", "origin", `refs/heads/locus/wip/issue-${issue.number}`])).split(
      "\t",
    )[0];
    expect(now).toBe(wip);
  });
});
