/**
 * Git hazards (docs/reliability.md): the push at the end of a task meets a remote that changed under it —
 * someone pushed to `locus/issue-<N>` meanwhile, a protected-branch rule
 * (a `pre-receive` hook in the real bare remote) refuses it, or the token
 * expired before the pull request call. Locus must never force over another
 * person's commits, must keep the agent's work on the wip branch, and must
 * say clearly what happened. Each hazard is set off from inside the model's
 * scripted turn, so it happens at the same point every time.
 */
import { execFileSync } from "node:child_process";
import { chmod, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { Harness } from "../action/harness.ts";
import { startHarness } from "../action/harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

const PERSON = {
  GIT_AUTHOR_NAME: "Dana Developer",
  GIT_AUTHOR_EMAIL: "dana@example.com",
  GIT_COMMITTER_NAME: "Dana Developer",
  GIT_COMMITTER_EMAIL: "dana@example.com",
};

/** A person's commit on `branch`, pushed from their own clone; answers its sha. Synchronous, so a scripted turn can run it. */
function personPushes(branch: string, file: string): string {
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: h.scratch,
      env: { ...process.env, ...PERSON },
      encoding: "utf8",
    }).trim();
  git("fetch", "--quiet", "origin");
  const exists = git("ls-remote", "origin", `refs/heads/${branch}`) !== "";
  git("checkout", "--quiet", "-B", branch, exists ? `origin/${branch}` : "origin/main");
  execFileSync("sh", ["-c", `echo "person's work" > ${file}`], { cwd: h.scratch });
  git("add", file);
  git("commit", "--quiet", "-m", `person: ${file}`);
  git("push", "--quiet", "origin", `HEAD:refs/heads/${branch}`);
  return git("rev-parse", "HEAD");
}

async function remoteSha(branch: string): Promise<string> {
  return (await h.git(["ls-remote", "origin", `refs/heads/${branch}`])).split("\t")[0] ?? "";
}

async function failureComment(issue: number): Promise<string> {
  const comments = (await h.api.getIssue(issue))?.comments ?? [];
  return comments.find((c) => c.body.startsWith("**Locus could not finish this task:**"))?.body ?? "";
}

const AGENT_FILE = "src/agent-work.js";
const AGENT_CONTENT = "export const work = 'the agent did this';\n";

describe("git hazards at the push", () => {
  it("someone pushed to the task branch meanwhile: no force-push, the work is on the wip branch", async () => {
    const issue = (await h.api.createIssue({ title: "Race me", body: "Do it.", labels: ["locus:queued"] }))
      .number;
    const branch = `locus/issue-${issue}`;
    personPushes(branch, "before.txt");
    let theirs = "";
    h.fake.setScript([
      reply(call("write_file", { path: AGENT_FILE, content: AGENT_CONTENT })),
      () => {
        theirs = personPushes(branch, "meanwhile.txt");
        return reply(call("finish", { summary: "Wrote the work." }));
      },
    ]);

    const run = await h.run({ mode: "issue", issue: String(issue) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("failed");
    expect(await remoteSha(branch), "the person's commit is still the tip").toBe(theirs);
    expect(await h.show(`locus/wip/issue-${issue}`, AGENT_FILE)).toBe(AGENT_CONTENT);
    expect((await h.api.getIssue(issue))?.labels).toContain("locus:failed");
    const comment = await failureComment(issue);
    expect(comment).toContain(`${branch} changed on GitHub while Locus worked on it`);
    expect(comment).toContain(`locus/wip/issue-${issue}`);
  });

  it("a protected-branch rule refuses the push: the work is on the wip branch and the refusal is quoted", async () => {
    const issue = (await h.api.createIssue({ title: "Protected", body: "Do it.", labels: ["locus:queued"] }))
      .number;
    const branch = `locus/issue-${issue}`;
    const hook = path.join(h.repo.gitDir, "hooks", "pre-receive");
    await writeFile(
      hook,
      [
        "#!/bin/sh",
        "while read old new ref; do",
        `  if [ "$ref" = "refs/heads/${branch}" ]; then`,
        `    echo "GH006: Protected branch update failed for refs/heads/${branch}." >&2`,
        "    exit 1",
        "  fi",
        "done",
        "",
      ].join("\n"),
    );
    await chmod(hook, 0o755);
    h.fake.setScript([
      reply(call("write_file", { path: AGENT_FILE, content: AGENT_CONTENT })),
      reply(call("finish", { summary: "Wrote the work." })),
    ]);

    try {
      const run = await h.run({ mode: "issue", issue: String(issue) });

      expect(run.code).toBe(0);
      expect(run.outputs["status"]).toBe("failed");
      expect(await remoteSha(branch)).toBe("");
      expect(await h.show(`locus/wip/issue-${issue}`, AGENT_FILE)).toBe(AGENT_CONTENT);
      expect((await h.api.getIssue(issue))?.labels).toContain("locus:failed");
      const comment = await failureComment(issue);
      expect(comment).toContain(`pushing ${branch} failed`);
      expect(comment).toContain("GH006: Protected branch update failed");
      expect(comment).toContain(`locus/wip/issue-${issue}`);
    } finally {
      await rm(hook);
    }
  });

  it("the token expires before the pull request: the branch and the wip are pushed, the job says why it failed", async () => {
    const issue = (await h.api.createIssue({ title: "Expire", body: "Do it.", labels: ["locus:queued"] }))
      .number;
    const branch = `locus/issue-${issue}`;
    const record = h.sim.store.tokens.get(h.token);
    if (!record) throw new Error("the harness token is not in the simulator");
    const expiresAt = record.expiresAt;
    h.fake.setScript([
      reply(call("write_file", { path: AGENT_FILE, content: AGENT_CONTENT })),
      () => {
        record.expiresAt = "2000-01-01T00:00:00Z";
        return reply(call("finish", { summary: "Wrote the work." }));
      },
    ]);

    try {
      const run = await h.run({ mode: "issue", issue: String(issue) });

      expect(run.code).toBe(1);
      expect(await h.show(branch, AGENT_FILE)).toBe(AGENT_CONTENT);
      expect(await h.show(`locus/wip/issue-${issue}`, AGENT_FILE)).toBe(AGENT_CONTENT);
      expect(run.stdout).toContain(`The work so far is saved on locus/wip/issue-${issue}.`);
      expect(run.stdout).toMatch(/::error::.*Bad credentials\. The token is missing, expired or revoked/);
      const printed = run.stdout.replace(/^::add-mask::.*$/gm, "");
      expect(printed).not.toContain(h.token);
    } finally {
      record.expiresAt = expiresAt;
    }
    expect(await h.api.findPullRequestByHead(branch)).toBeNull();
  });
});
