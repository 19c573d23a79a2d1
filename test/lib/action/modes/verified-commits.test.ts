/**
 * Verified commits, modes `issue` and `iterate` run in process in a pull request world
 * (pull-request-world.ts) whose bare remote requires signed commits on every branch, checked by
 * the simulator's pre-receive rule (test/fakes/remote-rules.ts). Locus's plain push is refused: the
 * task fails, its comment names GitHub's rule and `commit.via: api`, and says the wip branch was
 * refused as well. With `commit.via: api` the same task delivers its PR, and every commit on its
 * branch is one GitHub made (test/fakes/remote-commits.ts) and marks verified.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../../lib/action/modes/issue.ts";
import type { ModeResult } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { PERSON_BYPASS } from "../../../fakes/remote-rules.ts";
import { configForThisMachine } from "../../../needs-bubblewrap.ts";
import { iterateRound } from "./iterate-round.ts";
import { startPullRequestWorld, type PullRequestWorld } from "./pull-request-world.ts";

let p: PullRequestWorld;

beforeAll(async () => {
  p = await startPullRequestWorld({ github: { permissions: { rev: "write" } } });
  await p.w.requireSignedCommits();
}, 60_000);

afterAll(async () => {
  await p.w.close();
});

function addFarewell(): void {
  p.w.anthropic.setScript([
    reply(call("write_file", { path: "src/farewell.js", content: "export const bye = () => 'bye';\n" })),
    reply(call("finish", { summary: "Added farewell." })),
  ]);
}

/** Commits `.github/locus.yml` to main as a person would (a person's push meets no ruleset here). */
async function configure(text: string): Promise<void> {
  await p.w.git(["checkout", "--quiet", "-B", "main", "origin/main"]);
  await mkdir(join(p.w.scratch, ".github"), { recursive: true });
  await writeFile(join(p.w.scratch, ".github/locus.yml"), configForThisMachine(text));
  await p.w.git(["add", ".github/locus.yml"]);
  await p.w.git(["commit", "--quiet", "--allow-empty", "-m", "chore: Locus config"]);
  await p.w.git(["push", "--quiet", ...PERSON_BYPASS, "origin", "HEAD:main"]);
}

const runIssue = async (issue: number): Promise<ModeResult> => runIssueMode(await p.w.context(), [issue]);

const commentsOn = (number: number) =>
  p.w.github.store.comments.filter((c) => c.issue === number).map((c) => c.body);

/** "exit 0": the run finished without a fault of Locus's own. */
const faulted = (result: ModeResult) => result.tasks.some((task) => task.fault);

describe("verified commits, in process", { timeout: 60_000 }, () => {
  it("a signatures ruleset refuses the plain push, naming the rule and commit.via: api; with it the task delivers verified commits", async () => {
    const issue = await p.w.github.createIssue({ title: "Add farewell", labels: ["locus:queued"] });
    addFarewell();
    const logStart = p.w.log.lines.length;

    await runIssue(issue.number);

    expect(p.w.github.labelsOf(issue.number)).toContain("locus:failed");
    const failure = commentsOn(issue.number).find((body) =>
      body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure).toContain("**GitHub refused the push** to `refs/heads/locus/issue-");
    expect(failure).toContain("- Commits must have verified signatures.");
    expect(failure).toContain("set `commit.via: api` in `.github/locus.yml`");
    expect(failure).toContain("The same rules refused the work-in-progress branch");
    // The bundle's stdout: what the run logged.
    expect(p.w.log.lines.slice(logStart).join("\n")).toContain("GH013");

    await configure("version: 3\ncommit:\n  via: api\n");
    await p.w.github.setLabels(issue.number, ["locus:queued"]);
    addFarewell();

    const delivered = await runIssue(issue.number);

    expect(faulted(delivered)).toBe(false);
    const pr = await p.w.github.findPullRequestByHead(`locus/issue-${issue.number}`);
    expect(pr).not.toBeNull();
    expect(await p.w.show(`locus/issue-${issue.number}`, "src/farewell.js")).toBe(
      "export const bye = () => 'bye';\n",
    );
    const commits = await p.w.git(["rev-list", `origin/main..origin/locus/issue-${issue.number}`]);
    const shas = commits.split("\n").filter(Boolean);
    expect(shas.length).toBeGreaterThan(0);
    for (const sha of shas) expect(p.w.verifiedCommits.has(sha)).toBe(true);
  });

  it("an iterate round: a plain push is refused naming the rule; with commit.via: api it appends a verified commit", async () => {
    await configure("version: 3\ncommit:\n  via: api\n");
    const issue = await p.w.github.createIssue({ title: "Add greeting", labels: ["locus:queued"] });
    p.w.anthropic.setScript([
      reply(call("write_file", { path: "src/hello.js", content: "export const hi = () => 'hi';\n" })),
      reply(call("finish", { summary: "Added hello." })),
    ]);
    const pr = (await runIssue(issue.number)).tasks[0]?.pr?.number ?? 0;
    const branch = `locus/issue-${issue.number}`;
    const before = await p.head(branch);

    const iterate = async () => {
      await p.catchUp();
      p.w.github.seedReview(
        pr,
        { event: "COMMENT", body: "", comments: [{ path: "src/hello.js", line: 1, body: "Say it twice." }] },
        "rev",
      );
      p.w.anthropic.setScript([
        reply(call("write_file", { path: "src/hello.js", content: "export const hi = () => 'hi hi';\n" })),
        reply(call("finish", { summary: "Says it twice." })),
      ]);
      return iterateRound(p, pr);
    };

    await configure("version: 3\n");
    await iterate();
    const refusal = commentsOn(pr).find((body) => body.includes("**GitHub refused the push**"));
    expect(refusal).toContain("- Commits must have verified signatures.");
    expect(refusal).toContain("set `commit.via: api`");
    expect(await p.head(branch)).toBe(before);

    await configure("version: 3\ncommit:\n  via: api\n");
    // The refused round marked the task failed; a writer puts it back in review.
    await p.w.github.setLabels(issue.number, ["locus:in-review", "agent:managed"]);
    expect(faulted((await iterate()).result)).toBe(false);
    const head = await p.head(branch);
    expect((await p.w.git(["rev-parse", `${head}~1`])).trim()).toBe(before);
    expect(p.w.verifiedCommits.has(head)).toBe(true);
    expect(await p.w.show(branch, "src/hello.js")).toBe("export const hi = () => 'hi hi';\n");
  });
});
