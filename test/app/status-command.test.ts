import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderStatusComment, type StatusState } from "../../lib/status/status-comment.ts";
import { commentsOf, owner, repo } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";
import { markdownLinks, sections, tableRows } from "../lib/render/markdown-structure.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

/** A status comment as Locus writes it, recording `state`. */
async function statusComment(issue: number, state: Partial<StatusState>): Promise<void> {
  const body = renderStatusComment({ headline: "Working" }, { deliveries: [], attempts: 0, ...state });
  await h.repo.comment(issue, `<!-- locus:status -->\n${body}`, { as: h.sim.app.botLogin });
}

function git(...args: string[]): string {
  return execFileSync("git", ["-C", h.repo.gitDir, ...args], { encoding: "utf8" }).trim();
}

/** A branch `locus/issue-<N>` as the Action pushes it, and its managed PR. */
async function locusPullRequest(issue: number): Promise<number> {
  const commit = git("commit-tree", git("rev-parse", "main^{tree}"), "-p", "main", "-m", `feat (#${issue})`);
  git("update-ref", `refs/heads/locus/issue-${issue}`, commit);
  const pull = await h.repo.pull(
    { title: `feat: greet (#${issue})`, head: `locus/issue-${issue}`, body: `Closes #${issue}` },
    { as: h.sim.app.botLogin },
  );
  await h
    .as("alice")
    .rest.issues.addLabels({ owner, repo, issue_number: pull.number, labels: ["agent:managed"] });
  await h.settle();
  return pull.number;
}

describe("/locus status", () => {
  it("answers with the repository's sprints, tasks, pull requests and budget in one read", async () => {
    const web = h.sim.url;
    const sprint = await h.repo.milestone({ title: "Sprint A" });
    const task = (title: string, labels: string[], state: "open" | "closed" = "open") =>
      h.repo.issue({ title, labels, milestone: sprint.number, state });
    await task("Done one", ["locus:done", "order:1"], "closed");
    await task("Done two", ["locus:done", "order:2"], "closed");
    const running = await task("Running | piped", ["locus:in-progress", "order:3"]);
    const failed = await task("Broken", ["locus:failed", "order:4"]);
    await statusComment(running.number, { attempts: 1 });
    await statusComment(failed.number, {
      attempts: 2,
      lastError: "The agent stopped: npm test failed with 3 errors",
      runUrl: `${web}/${owner}/${repo}/actions/runs/9`,
    });
    const tracking = await h.repo.issue({ title: "Sprint: Sprint A", labels: ["agent:managed"] });
    const queued = await h.repo.issue({ title: "Standalone", labels: ["locus:queued"] });
    const reviewed = await h.repo.issue({ title: "Greet", labels: ["locus:in-review", "agent:managed"] });
    const pull = await locusPullRequest(reviewed.number);
    await h.repo.issue({ title: "Not Locus's", labels: ["type:bug"] });
    git(
      "update-ref",
      "refs/heads/feature/human",
      git("commit-tree", "main^{tree}", "-p", "main", "-m", "human"),
    );
    await h.repo.pull({ title: "A person's change", head: "feature/human" }, { as: "alice" });

    const before = h.sim.requestLog.length;
    await h.as("eve").rest.issues.createComment({
      owner,
      repo,
      issue_number: failed.number,
      body: "/locus status",
    });
    await h.settle();

    const reply = (await commentsOf(h, failed.number)).at(-1) ?? "";
    const parts = sections(reply);
    expect(parts.get("")?.split("\n\n")).toContain(
      `\\#${failed.number} is \`locus:failed\` · [last run](${web}/${owner}/${repo}/actions/runs/9) · 2 attempts.`,
    );

    const [sprintRow, ...otherSprints] = tableRows(parts.get("Active sprints (1)") ?? "");
    expect(otherSprints).toEqual([]);
    expect(sprintRow?.slice(1, 3)).toEqual(["`████░░░░ 2/4`", "running"]);
    expect(markdownLinks(sprintRow?.[0] ?? "")).toEqual([
      { text: "Sprint A", url: `${web}/${owner}/${repo}/milestone/${sprint.number}` },
    ]);
    expect(markdownLinks(sprintRow?.[3] ?? "")).toEqual([
      { text: `#${tracking.number}`, url: `${web}/${owner}/${repo}/issues/${tracking.number}` },
    ]);

    expect(tableRows(parts.get("Running (1)") ?? "")).toEqual([
      [
        `[#${running.number}](${web}/${owner}/${repo}/issues/${running.number})`,
        "Running \\| piped",
        "Sprint A",
        "1",
        "—",
      ],
    ]);
    expect(tableRows(parts.get("Queued (1)") ?? "")).toEqual([
      [`[#${queued.number}](${web}/${owner}/${repo}/issues/${queued.number})`, "Standalone", "—", "0", "—"],
    ]);
    expect(tableRows(parts.get("Failed (1)") ?? "")).toEqual([
      [
        `[#${failed.number}](${web}/${owner}/${repo}/issues/${failed.number})`,
        "Broken",
        "Sprint A",
        "2",
        "—",
        "The agent stopped: npm test failed with 3 errors",
        "comment `/locus run` on it",
      ],
    ]);
    expect(tableRows(parts.get("Open Locus pull requests (1)") ?? "")).toEqual([
      [
        `[#${pull}](${web}/${owner}/${repo}/pull/${pull})`,
        `feat: greet (#${reviewed.number})`,
        `#${reviewed.number}`,
      ],
    ]);
    expect(reply).toMatch(
      /\*\*API budget:\*\* [\d,]+ of 5,000 GitHub API calls left, resets \d\d:\d\d UTC\./,
    );

    // Every event costs the app its config read (and once, its own login); the command adds
    // the acknowledging reaction, its one read and its reply.
    const plumbing = ["GET /app", `GET /repos/${owner}/${repo}/contents/.github%2Flocus.yml`];
    const calls = h.sim.requestLog
      .slice(before)
      .filter((entry) => entry.login === h.sim.app.botLogin && !entry.path.includes("access_tokens"))
      .map((entry) => `${entry.method} ${entry.operationName ?? entry.path}`)
      .filter((call) => !plumbing.includes(call));
    const [commandComment] = (
      await h.as("alice").rest.issues.listComments({ owner, repo, issue_number: failed.number })
    ).data.slice(-2);
    expect(calls).toEqual([
      `POST /repos/${owner}/${repo}/issues/comments/${commandComment?.id}/reactions`,
      "POST RepositoryStatus",
      `POST /repos/${owner}/${repo}/issues/${failed.number}/comments`,
    ]);
  });

  it("lists a task waiting for an answer with its question, made safe, and how long it has waited", async () => {
    const web = h.sim.url;
    const sprint = await h.repo.milestone({ title: "Sprint Q" });
    const waiting = await h.repo.issue({
      title: "Shout",
      labels: ["locus:waiting", "order:1"],
      milestone: sprint.number,
    });
    // Long enough ago that the whole-day count holds however long the test takes.
    const askedAt = new Date(Date.now() - 50 * 3_600_000).toISOString();
    await statusComment(waiting.number, {
      attempts: 1,
      waiting: { questions: ["Ask @octocat: caps or not?", "And the mark?"], commentId: 1, askedAt },
    });

    await h.as("alice").rest.issues.createComment({
      owner,
      repo,
      issue_number: waiting.number,
      body: "/locus status",
    });
    await h.settle();

    const reply = (await commentsOf(h, waiting.number)).at(-1) ?? "";
    const parts = sections(reply);
    expect(parts.get("")?.split("\n\n")).toContain(
      `\\#${waiting.number} is \`locus:waiting\` · 1 attempt · waiting 2 days for an answer.`,
    );
    const sprintRow = tableRows(
      [...parts].find(([title]) => title.startsWith("Active sprints"))?.[1] ?? "",
    ).find((row) => row[0]?.includes("Sprint Q"));
    expect(sprintRow?.[2]).toBe("waiting for an answer");
    expect(tableRows(parts.get("Waiting for an answer (1)") ?? "")).toEqual([
      [
        `[#${waiting.number}](${web}/${owner}/${repo}/issues/${waiting.number})`,
        "Shout",
        "Sprint Q",
        "1",
        "—",
        "Ask @\u2060octocat: caps or not? _(and 1 more)_",
        "2 days",
        "reply on it (a writer), or `/locus answer <text>`",
      ],
    ]);
  });
});
